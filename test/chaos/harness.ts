/**
 * The parent side of the chaos test: its own nats-server, the recording endpoint
 * effects call, and handles on the node processes. Loopback only; every wait is bounded.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ActorEvent } from '../../actors/index.js';
import type { RecordedDelivery } from './account-kind.js';
import type { ChildInit, ChildReply, ChildRequest, LoopStats } from './protocol.js';

export const NATS_SERVER_BIN = '/usr/sbin/nats-server';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export { waitFor } from '../support/nats.js';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A nats-server of the test's own, with JetStream in `storeDir`, on a loopback port; never the shared one. */
export class NatsServerProcess {
  #proc: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  starts = 0;

  constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}

  get running(): boolean {
    return this.#proc !== undefined && this.#proc.exitCode === null && this.#proc.signalCode === null;
  }

  async start(timeoutMs = 15_000): Promise<void> {
    const proc = spawn(NATS_SERVER_BIN, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#proc = proc;
    this.starts++;
    this.#exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nats-server did not become ready within ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const watch = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Server is ready')) {
          clearTimeout(timer);
          proc.stderr!.off('data', watch);
          proc.stdout!.off('data', watch);
          resolve();
        }
      };
      proc.stderr!.on('data', watch);
      proc.stdout!.on('data', watch);
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${output}`));
      });
    });
    // Keep draining its output so the pipe never fills.
    proc.stderr!.resume();
    proc.stdout!.resume();
  }

  /** Stops it (SIGTERM, then SIGKILL after `graceMs`) and waits for the exit. */
  async stop(graceMs = 3_000): Promise<void> {
    const proc = this.#proc;
    if (!proc || !this.running) return;
    proc.kill('SIGTERM');
    const killer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    await this.#exited;
    clearTimeout(killer);
  }
}

/** Counts deliveries per effect id, and which node sent each, as the `record` effect reports them. */
export class Recorder {
  readonly deliveries: Array<RecordedDelivery & { receivedAt: number }> = [];

  private constructor(
    private readonly server: HttpServer,
    readonly url: string,
  ) {}

  static async start(): Promise<Recorder> {
    let recorder: Recorder | undefined;
    const server = createHttpServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        try {
          const delivery = JSON.parse(body) as RecordedDelivery;
          recorder!.deliveries.push({ ...delivery, receivedAt: Date.now() });
          response.writeHead(204).end();
        } catch {
          response.writeHead(400).end();
        }
      });
    });
    server.keepAliveTimeout = 1_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    recorder = new Recorder(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/record`);
    return recorder;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export type AskResult = { ok: true; value: unknown } | { ok: false; name: string; code: string | null; message: string };

/** A node process and the asks it is answering. */
export class ChildNode {
  readonly #pending = new Map<number, { resolve(value: ChildReply): void; timer: NodeJS.Timeout }>();
  #seq = 0;
  #exit: Promise<void>;
  alive = true;
  killedAt: number | null = null;

  private constructor(
    readonly id: string,
    readonly proc: ChildProcess,
  ) {
    this.#exit = new Promise((resolve) =>
      proc.once('exit', () => {
        this.alive = false;
        for (const [seq, pending] of this.#pending) {
          clearTimeout(pending.timer);
          pending.resolve({ type: 'reply', seq, ok: false, name: 'ChildExited', code: null, message: `${id} exited` });
        }
        this.#pending.clear();
        resolve();
      }),
    );
    proc.on('message', (reply: ChildReply) => {
      if (reply.type !== 'reply' && reply.type !== 'shards' && reply.type !== 'stats') return;
      const pending = this.#pending.get(reply.seq);
      if (!pending) return;
      this.#pending.delete(reply.seq);
      clearTimeout(pending.timer);
      pending.resolve(reply);
    });
  }

  static async start(init: ChildInit, timeoutMs = 30_000): Promise<ChildNode> {
    const entry = fileURLToPath(new URL('./node-child.ts', import.meta.url));
    const proc = fork(entry, [], { execArgv: ['--import', 'tsx'], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const node = new ChildNode(init.nodeId, proc);
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${init.nodeId} did not start within ${timeoutMs} ms`)), timeoutMs);
      proc.on('message', (reply: ChildReply) => {
        if (reply.type === 'ready') {
          clearTimeout(timer);
          resolve();
        }
        if (reply.type === 'failed') {
          clearTimeout(timer);
          reject(new Error(`${init.nodeId} failed to start: ${reply.message}`));
        }
      });
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${init.nodeId} exited (${code ?? signal}) while starting`));
      });
    });
    proc.send({ type: 'init', init } satisfies ChildRequest);
    try {
      await ready;
    } catch (error) {
      node.kill();
      throw error;
    }
    return node;
  }

  #request(request: ChildRequest & { seq: number }, timeoutMs: number): Promise<ChildReply> {
    return new Promise((resolve) => {
      if (!this.alive) {
        resolve({ type: 'reply', seq: request.seq, ok: false, name: 'ChildExited', code: null, message: `${this.id} is not running` });
        return;
      }
      const timer = setTimeout(() => {
        this.#pending.delete(request.seq);
        resolve({ type: 'reply', seq: request.seq, ok: false, name: 'ParentTimeout', code: null, message: `${this.id} did not answer within ${timeoutMs} ms` });
      }, timeoutMs);
      this.#pending.set(request.seq, { resolve, timer });
      this.proc.send(request, (error) => {
        if (error && this.#pending.delete(request.seq)) {
          clearTimeout(timer);
          resolve({ type: 'reply', seq: request.seq, ok: false, name: 'ChildExited', code: null, message: error.message });
        }
      });
    });
  }

  async ask(id: string, event: ActorEvent, messageId: string, timeoutMs: number): Promise<AskResult> {
    const reply = await this.#request({ type: 'ask', seq: ++this.#seq, id, event, messageId }, timeoutMs);
    if (reply.type !== 'reply') throw new Error(`unexpected reply ${reply.type}`);
    return reply.ok ? { ok: true, value: reply.value } : { ok: false, name: reply.name, code: reply.code, message: reply.message };
  }

  /** The shards it holds a valid lease on now; empty when it does not answer. */
  async shards(timeoutMs = 2_000): Promise<number[]> {
    const reply = await this.#request({ type: 'shards', seq: ++this.#seq }, timeoutMs);
    return reply.type === 'shards' ? reply.shards : [];
  }

  /** Its event-loop lateness since the last reset; null when it does not answer. */
  async stats({ reset = false, timeoutMs = 2_000 } = {}): Promise<LoopStats | null> {
    const reply = await this.#request({ type: 'stats', seq: ++this.#seq, reset }, timeoutMs);
    return reply.type === 'stats' ? reply.stats : null;
  }

  /** SIGKILL: no drain, nothing handed back. */
  kill(): void {
    if (this.alive && this.killedAt === null) this.killedAt = Date.now();
    this.proc.kill('SIGKILL');
  }

  /** Graceful stop, bounded; killed if it does not exit in time. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.alive) return;
    try {
      this.proc.send({ type: 'stop' } satisfies ChildRequest);
    } catch {
      // Already gone.
    }
    const exited = await Promise.race([this.#exit.then(() => true), sleep(timeoutMs).then(() => false)]);
    if (!exited) {
      this.proc.kill('SIGKILL');
      await Promise.race([this.#exit, sleep(2_000)]);
    }
  }

  exited(): Promise<void> {
    return this.#exit;
  }
}
