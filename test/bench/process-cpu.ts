/**
 * The CPU time of a benchmark's server process, asked over its IPC channel, so a row
 * can say what a request cost the server and not only how many it answered. The
 * process's own count (getrusage) takes in every thread: V8's garbage collector and
 * libuv's pool as well as the main thread.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server is settled once it spends under this share of a core over a look. */
const SETTLED_SHARE = 0.04;
const LOOK_MS = 250;
const MOST_LOOKS = 40;

interface CpuQuery {
  cpuQuery: number;
}

interface CpuAnswer {
  cpuAnswer: number;
  micros: number;
}

/** In the server: answers each query with the process's user and system CPU time so far. */
export function answerCpuQueries(): void {
  process.on('message', (message: Partial<CpuQuery>) => {
    if (typeof message?.cpuQuery !== 'number') return;
    const { user, system } = process.cpuUsage();
    process.send!({ cpuAnswer: message.cpuQuery, micros: user + system } satisfies CpuAnswer);
  });
}

let queries = 0;

/** In the bench: the server's CPU time in microseconds so far. */
export function processCpuMicros(child: ChildProcess): Promise<number> {
  const query = ++queries;
  return new Promise((resolve, reject) => {
    const onMessage = (message: Partial<CpuAnswer>) => {
      if (message?.cpuAnswer !== query) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message.micros!);
    };
    const onExit = () => {
      child.off('message', onMessage);
      reject(new Error('the server exited before it told its CPU time'));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ cpuQuery: query } satisfies CpuQuery);
  });
}

/**
 * The server's CPU time once the work a row set off has run out: a create leaves
 * grouped writes and V8's marking of the heap it grew running after its last answer
 * (hundreds of milliseconds after a burst of creates), and counting that in the next
 * row would charge one endpoint for another. Waits while the server stays busier
 * than SETTLED_SHARE of a core, for ten seconds at most.
 */
export async function settledCpuMicros(child: ChildProcess): Promise<number> {
  let last = await processCpuMicros(child);
  for (let look = 0; look < MOST_LOOKS; look++) {
    await sleep(LOOK_MS);
    const now = await processCpuMicros(child);
    const busy = now - last;
    last = now;
    if (busy < SETTLED_SHARE * LOOK_MS * 1000) break;
  }
  return last;
}
