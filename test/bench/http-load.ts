/**
 * One closed-loop HTTP row against a server process (autocannon, in the bench's process),
 * with the server's CPU time over the row and the work it left running.
 */
import autocannon from 'autocannon';
import type { Child } from './children.js';
import { settledCpuMicros } from './process-cpu.js';

export interface Sample {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The server process's CPU time (all threads) over the row and the work it left running, per request answered. */
  serverCpuMicros: number;
  /** Requests answered over the row. */
  answered: number;
}

export interface LoadOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export async function load(server: Child, url: string, connections: number, seconds: number, options: LoadOptions = {}): Promise<Sample> {
  const cpuBefore = await settledCpuMicros(server.process);
  const result = await autocannon({ url, connections, duration: seconds, ...options });
  // What the row's requests set off and left running counts to the row.
  const cpuAfter = await settledCpuMicros(server.process);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  return {
    perSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    serverCpuMicros: (cpuAfter - cpuBefore) / Math.max(result.requests.total, 1),
    answered: result.requests.total,
  };
}

/** One JSON request; throws on an answer that is not a 2xx. */
export async function call(url: string, init: RequestInit): Promise<any> {
  const response = await fetch(url, init);
  const body = (await response.json()) as { responseObject: unknown };
  if (!response.ok) throw new Error(`${init.method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body.responseObject;
}
