/**
 * One process of the local cluster: spawned with exactly the environment it is given
 * (plus PATH), its output appended to a log file of its own, ready once a check says so,
 * stopped by SIGTERM (its drain) or killed by SIGKILL. Every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServiceSpec {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Where stdout and stderr go, appended across restarts. */
  logFile: string;
}

export class ServiceProcess {
  readonly exit: Promise<Exit>;
  #tail = '';

  private constructor(
    readonly spec: ServiceSpec,
    readonly proc: ChildProcess,
    log: WriteStream,
  ) {
    this.exit = new Promise((resolve) =>
      proc.once('exit', (code, signal) => {
        log.end();
        resolve({ code, signal });
      }),
    );
    const keep = (chunk: Buffer) => {
      log.write(chunk);
      // The last lines, for the message of a start that failed.
      this.#tail = (this.#tail + chunk.toString()).slice(-4_000);
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
  }

  static spawn(spec: ServiceSpec): ServiceProcess {
    const log = createWriteStream(spec.logFile, { flags: 'a' });
    const proc = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { PATH: process.env.PATH ?? '', ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ServiceProcess(spec, proc, log);
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** What the process printed last. */
  get tail(): string {
    return this.#tail;
  }

  /** Resolves once `check` answers true, polling every `everyMs`; rejects if the process exits first or `timeoutMs` passes. */
  async ready(check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exited: Exit | null = null;
    void this.exit.then((exit) => {
      exited = exit;
    });
    while (Date.now() < deadline) {
      if (exited) throw new Error(`${this.spec.name} exited (${(exited as Exit).code ?? (exited as Exit).signal}) while starting:\n${this.#tail}`);
      if (await check().catch(() => false)) return;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    throw new Error(`${this.spec.name} was not ready within ${timeoutMs} ms:\n${this.#tail}`);
  }

  /** SIGTERM, the process's drain; SIGKILL if it has not exited within `timeoutMs`. */
  async stop(timeoutMs: number): Promise<Exit> {
    if (!this.alive) return this.exit;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    const exit = await this.exit;
    clearTimeout(timer);
    return exit;
  }

  /** SIGKILL: nothing is drained or handed over. Resolves once the process is gone. */
  async kill(): Promise<Exit> {
    if (this.alive) this.proc.kill('SIGKILL');
    return this.exit;
  }
}
