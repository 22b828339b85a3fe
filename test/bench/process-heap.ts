/**
 * The V8 heap a server process holds, asked over its IPC channel: after a full
 * collection when the process runs with --expose-gc, so the figure is what stays
 * reachable (what the process holds) rather than garbage not yet collected.
 */
import type { ChildProcess } from 'node:child_process';

interface HeapQuery {
  heapQuery: number;
}

interface HeapAnswer {
  heapAnswer: number;
  heapUsed: number;
  collected: boolean;
}

/** In the server: answers each query with its heap in use, collected first where it can be. */
export function answerHeapQueries(): void {
  process.on('message', (message: Partial<HeapQuery>) => {
    if (typeof message?.heapQuery !== 'number') return;
    const gc = globalThis.gc;
    // Twice: the first collection's finalizers can free more for the second.
    gc?.();
    gc?.();
    process.send!({ heapAnswer: message.heapQuery, heapUsed: process.memoryUsage().heapUsed, collected: gc !== undefined } satisfies HeapAnswer);
  });
}

let queries = 0;

/** In the bench: the server's heap in use in bytes, after a full collection; throws if it could not collect. */
export function collectedHeapBytes(child: ChildProcess): Promise<number> {
  const query = ++queries;
  return new Promise((resolve, reject) => {
    const onMessage = (message: Partial<HeapAnswer>) => {
      if (message?.heapAnswer !== query) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (message.collected) resolve(message.heapUsed!);
      else reject(new Error('the server runs without --expose-gc, so its heap cannot be collected before it is read'));
    };
    const onExit = () => {
      child.off('message', onMessage);
      reject(new Error('the server exited before it told its heap'));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ heapQuery: query } satisfies HeapQuery);
  });
}
