/**
 * Runs anvil, the local Ethereum node from the @foundry-rs/anvil npm package, as a child process
 * on loopback. The port is 0, so the OS picks a free one and anvil reports it: no window in which
 * another process can take a port we chose, and no retry loop. anvil never outlives this process
 * by more than the time it takes to write its state.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

export const ANVIL_DEFAULT_CHAIN_ID = 31337;

export interface AnvilOptions {
  /** Default 31337, anvil's own. */
  chainId?: number;
  /** Mine a block every this many seconds; by default every transaction is mined at once. */
  blockTimeSeconds?: number;
  /** How long anvil may take to start listening; default 20 s. */
  startupTimeoutMs?: number;
  /**
   * Where the chain is kept between runs: loaded at start when the file exists, written on
   * exit, so a node started again continues the same chain.
   * Unset, the chain lives only as long as anvil.
   */
  stateFile?: string;
}

export interface Anvil {
  rpcUrl: string;
  chainId: number;
  /** Ends anvil and resolves once it has exited; calling it again does nothing. */
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 5_000;

/** How long a start waits for the anvil of an earlier run on the same state file to finish writing it. */
const PREVIOUS_RUN_WAIT_MS = 30_000;

/**
 * anvil cannot watch its parent, so a shell arranges it: a background reader of stdin (a pipe
 * from this process) sends SIGTERM to the shell's pid, which `exec` then hands to anvil, once
 * the pipe closes. The kernel closes it however this process ends, SIGKILL included; stop()
 * closes it on purpose. The reader gets stdin as fd 3 because sh gives background jobs
 * /dev/null for stdin. (POSIX only, as is everything this repository runs on.)
 */
const STOP_WITH_PARENT = 'exec 3<&0; (cat <&3; kill $$) >/dev/null 2>&1 & exec "$@" 3<&-';

/** Foundry names its per-platform packages with Go's architecture names. */
const NPM_ARCH: Partial<Record<string, string>> = { x64: 'amd64', arm64: 'arm64' };

/**
 * The binary ships in a per-platform npm package. We depend on those packages directly
 * (as optional dependencies, so other platforms install without them) rather than on the
 * @foundry-rs/anvil wrapper, whose lock entries name platform packages a registry may not
 * carry, which breaks `npm ci`.
 */
export function anvilBinaryPath(): string {
  const arch = NPM_ARCH[process.arch];
  if (arch === undefined) throw new Error(`anvil has no npm binary for ${process.platform}/${process.arch}`);
  const executable = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  const name = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    return createRequire(import.meta.url).resolve(`${name}/bin/${executable}`);
  } catch {
    throw new Error(`anvil is not installed for this platform: npm install --save-optional ${name} (package.json lists linux-amd64 only)`);
  }
}

export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const chainId = options.chainId ?? ANVIL_DEFAULT_CHAIN_ID;
  const args = ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(chainId)];
  if (options.blockTimeSeconds !== undefined) args.push('--block-time', String(options.blockTimeSeconds));
  if (options.stateFile !== undefined) {
    await previousRunEnded(options.stateFile);
    // Written on exit only, which a SIGKILLed node's anvil still reaches (STOP_WITH_PARENT). Not on an interval too:
    // anvil 1.7.1's periodic writes let the relayer see a nonce spent before its receipt, and fulfilments ended
    // DROPPED under load (`npm run bench -- payments`: two runs of two with a 5 s interval, none without).
    args.push('--state', options.stateFile);
  }

  // An anvil that keeps state writes it after this process may be gone: its output goes to a
  // file, since a write to a pipe nobody reads any more would end it before the state is out.
  const logFile = options.stateFile === undefined ? null : `${options.stateFile}.log`;
  const output = logFile === null ? 'pipe' : openSync(logFile, 'w');
  const child = spawn('/bin/sh', ['-c', STOP_WITH_PARENT, 'anvil', anvilBinaryPath(), ...args], {
    stdio: ['pipe', output, output],
    // Its own process group: a Ctrl-C or a SIGTERM sent to ours reaches the node, which stops its
    // indexer and then anvil, instead of anvil dying under an indexer still reading it.
    detached: true,
  });
  if (typeof output === 'number') closeSync(output);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // The pipe carries nothing and signals only by closing; closing it after anvil is gone may
  // fail with EPIPE, which changes nothing.
  child.stdin!.on('error', () => {});

  const stop = async (): Promise<void> => {
    child.stdin!.end();
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    // Killed while writing its state, anvil would leave half a chain: one that keeps state is let finish, and the next start waits for it.
    const timer = logFile === null ? setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS) : null;
    await (timer === null ? Promise.race([exited, delay(STOP_GRACE_MS)]) : exited);
    if (timer) clearTimeout(timer);
  };

  if (options.stateFile !== undefined && child.pid !== undefined) await writeFile(pidFileOf(options.stateFile), String(child.pid));

  try {
    const startupTimeoutMs = options.startupTimeoutMs ?? 20_000;
    const address = logFile === null ? await listeningAddress(child, startupTimeoutMs) : await listeningAddressInFile(child, logFile, startupTimeoutMs);
    const rpcUrl = `http://${address}`;
    const answered = await rpcChainId(rpcUrl);
    if (answered !== chainId) throw new Error(`anvil at ${rpcUrl} answered chain id ${answered}, not ${chainId}`);
    return { rpcUrl, chainId, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

const pidFileOf = (stateFile: string): string => `${stateFile}.pid`;

/**
 * The anvil of a node that was just killed is still writing the state file when the node
 * is started again over the same folder (the data folder's lock is the node's, released
 * at its death, not anvil's): loading a half-written file would lose the chain. So the
 * start waits for that anvil to exit, and ends it after PREVIOUS_RUN_WAIT_MS.
 */
async function previousRunEnded(stateFile: string): Promise<void> {
  const pid = Number(await readFile(pidFileOf(stateFile), 'utf8').catch(() => ''));
  if (!Number.isInteger(pid) || pid <= 0) return;
  const stillAnvilOnThisFile = async (): Promise<boolean> => (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').includes(stateFile);
  const deadline = Date.now() + PREVIOUS_RUN_WAIT_MS;
  while (await stillAnvilOnThisFile()) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      return;
    }
    await delay(50);
  }
}

const LISTENING = /^Listening on (127\.0\.0\.1:\d+)$/m;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reads anvil's log file until it names the address it listens on. */
async function listeningAddressInFile(child: ChildProcess, logFile: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const written = await readFile(logFile, 'utf8');
    const address = LISTENING.exec(written)?.[1];
    if (address !== undefined) return address;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`anvil exited before listening: ${written.slice(-4_000) || '(no output)'}`);
    if (Date.now() > deadline) throw new Error(`anvil did not listen within ${timeoutMs} ms`);
    await delay(25);
  }
}

/**
 * Reads anvil's output until it names the address it listens on. The rest (the banner, then a
 * line per request) is read and dropped, so a full pipe never blocks anvil.
 */
function listeningAddress(child: ChildProcess, timeoutMs: number): Promise<string> {
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void): void => {
      clearTimeout(timer);
      child.off('exit', onExit).off('error', onError);
      lines.off('line', onLine);
      outcome();
    };
    const onLine = (line: string): void => {
      const address = LISTENING.exec(line.trim())?.[1];
      if (address !== undefined) settle(() => resolve(address));
    };
    const onExit = (): void => settle(() => reject(new Error(`anvil exited before listening: ${stderr || '(no output)'}`)));
    const onError = (error: Error): void => settle(() => reject(new Error(`anvil did not start: ${error.message}`)));
    const timer = setTimeout(() => settle(() => reject(new Error(`anvil did not listen within ${timeoutMs} ms`))), timeoutMs);
    lines.on('line', onLine);
    child.on('exit', onExit).on('error', onError);
  });
}

async function rpcChainId(rpcUrl: string): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  });
  const body = (await response.json()) as { result?: string };
  if (body.result === undefined) throw new Error(`anvil at ${rpcUrl} did not answer eth_chainId`);
  return Number(body.result);
}
