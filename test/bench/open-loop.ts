/**
 * An open-loop load: requests sent at a fixed rate whatever the answers do, each timed
 * from when it was due to be sent, so a stall shows as the latency every request
 * queued behind it saw (a closed loop such as autocannon's sends less while the
 * server stalls and hides it). autocannon's own `overallRate` sends each second's
 * requests in a burst, which is not a fixed rate. Loopback only.
 */
import { Agent, request } from 'node:http';
import { percentile } from './harness.js';

export interface OpenLoopSample {
  /** The rate asked for, requests per second. */
  rate: number;
  /** The rate the answers came back at over the run. */
  answeredPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface OpenLoopRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** Sends `rate` requests a second for `seconds`; throws on any answer that is not a 2xx. */
export async function openLoop(target: OpenLoopRequest, rate: number, seconds: number): Promise<OpenLoopSample> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const total = Math.max(1, Math.round(rate * seconds));
  const latencies: number[] = [];
  const sends: Promise<void>[] = [];
  // Held rather than left on its promise, which nothing awaits until every request is out.
  let failure: unknown;
  const start = performance.now();
  try {
    for (let i = 0; i < total && failure === undefined; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
      sends.push(
        send(agent, target).then(
          () => void latencies.push(performance.now() - due),
          (error: unknown) => void (failure ??= error),
        ),
      );
    }
    await Promise.all(sends);
  } finally {
    agent.destroy();
  }
  if (failure !== undefined) throw failure;
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (share: number) => round(percentile(latencies, share));
  return { rate, answeredPerSecond: total / elapsed, p50Ms: at(0.5), p90Ms: at(0.9), p99Ms: at(0.99), maxMs: round(latencies.at(-1)!) };
}

/** One request on `agent`, its answer read to the end; rejects on an answer that is not a 2xx. */
export function send(agent: Agent, { url, method, headers, body }: OpenLoopRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent }, (response) => {
      response.resume();
      response.once('end', () => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else reject(new Error(`${method} ${url}: ${status}`));
      });
    });
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

const round = (ms: number) => Math.round(ms * 10) / 10;
