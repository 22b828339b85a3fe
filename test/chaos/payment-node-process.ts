/**
 * The parent's handle on a payment-node-child.ts process: started with an environment
 * (the node's configuration), ready once it serves, its bus tap's events collected into
 * a list the test shares between runs, and stopped either by SIGKILL or by SIGTERM's
 * drain. Every wait is bounded.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { NodePage, PaymentNodeMessage, TappedEvent } from './payment-node-child.js';

const ENTRY = fileURLToPath(new URL('./payment-node-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** An event the tap handed over, and which run of the node published it. */
export interface RunEvent extends TappedEvent {
  run: number;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class PaymentNodeProcess {
  #stderr = '';
  readonly exit: Promise<Exit>;
  url = '';
  /** The node's own attestation service and chain, as its checkout page is told of them; null when it runs none. */
  page: NodePage | null = null;

  private constructor(
    readonly run: number,
    readonly proc: ChildProcess,
    events: RunEvent[],
  ) {
    this.exit = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
    proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.#stderr += chunk));
    proc.on('message', (message: PaymentNodeMessage) => {
      if (message.type === 'event') events.push({ ...message.event, run });
    });
  }

  /** Forks the node with exactly `env` (plus PATH) and waits until it serves. */
  static async start(run: number, env: Record<string, string>, events: RunEvent[], timeoutMs = 30_000): Promise<PaymentNodeProcess> {
    const proc = fork(ENTRY, [], {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const node = new PaymentNodeProcess(run, proc, events);
    try {
      node.url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`node run ${run} did not serve within ${timeoutMs} ms:\n${node.stderr}`)), timeoutMs);
        proc.on('message', (message: PaymentNodeMessage) => {
          if (message.type !== 'ready') return;
          clearTimeout(timer);
          node.page = message.page;
          resolve(message.url);
        });
        void node.exit.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`node run ${run} exited (${code ?? signal}) while starting:\n${node.stderr}`));
        });
      });
    } catch (error) {
      await node.kill();
      throw error;
    }
    return node;
  }

  get stderr(): string {
    return this.#stderr;
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** SIGKILL: no drain, nothing saved that was not saved already. Resolves once the process is gone. */
  async kill(): Promise<Exit> {
    if (this.alive) this.proc.kill('SIGKILL');
    return this.exit;
  }

  /** SIGTERM, the node's drain; SIGKILL if it has not exited within `timeoutMs`. */
  async stop(timeoutMs = 15_000): Promise<Exit> {
    if (!this.alive) return this.exit;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    const exit = await this.exit;
    clearTimeout(timer);
    return exit;
  }
}
