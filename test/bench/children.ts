/**
 * The bench's server processes: each forked with tsx so none shares an event loop with
 * the load generator or another, and each sends its first IPC message once it serves.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Child {
  process: ChildProcess;
  url: string;
  /** The rest of the child's ready message (a node's start-up timings). */
  ready: Record<string, unknown>;
}

export interface StartOptions {
  env?: Record<string, string>;
  stdout: number | 'ignore';
  execArgv?: string[];
}

/** Forks `script` (relative to this folder) with tsx and resolves once it sends its URL; its stdout goes to `stdout`. */
export function start(script: string, options: StartOptions): Promise<Child> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, ...options.env },
    execArgv: [...(options.execArgv ?? []), '--import=tsx'],
    stdio: ['ignore', options.stdout, 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ process: child, url: message.url, ready: message }));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready`)));
  });
}

/** SIGTERM, which drains a node; resolves once the process has exited. */
export function stop(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.process.once('exit', () => resolve());
    child.process.kill('SIGTERM');
  });
}
