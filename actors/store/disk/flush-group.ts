/**
 * Group durability for LMDB commits made without waiting for the disk: every write
 * committed before a sync starts is durable when it ends, so one sync answers every
 * write of an event-loop turn, and writes arriving while a sync runs share the next.
 * A failed sync fails its writes and every later call: memory-mapped pages may then be
 * ahead of the disk, and only a restart (which reads what the disk holds) is safe.
 */
export class FlushGroup {
  readonly #sync: () => Promise<void>;
  #next: Deferred | null = null;
  #running: Promise<void> | null = null;
  #failure: Error | null = null;

  constructor(sync: () => Promise<void>) {
    this.#sync = sync;
  }

  get failure(): Error | null {
    return this.#failure;
  }

  /** Resolves once everything committed before the call is on disk. */
  durable(): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (!this.#next) {
      this.#next = deferred();
      if (!this.#running) setImmediate(() => this.#start());
    }
    return this.#next.promise;
  }

  /** What a read waits for so that it never answers from a commit a crash could lose; null when everything is on disk. */
  settled(): Promise<void> | null {
    return this.#next?.promise ?? this.#running;
  }

  #start(): void {
    const batch = this.#next;
    if (!batch || this.#running) return;
    this.#next = null;
    const running = this.#sync().then(
      () => batch.resolve(),
      (error: unknown) => {
        this.#failure ??= error instanceof Error ? error : new Error(String(error));
        batch.reject(this.#failure);
        this.#next?.reject(this.#failure);
        this.#next = null;
      },
    );
    this.#running = running;
    running.finally(() => {
      this.#running = null;
      if (this.#next) this.#start();
    });
  }
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch nobody awaits (a read's wait abandoned) must not surface as an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
