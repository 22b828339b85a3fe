/**
 * One mailbox per live actor: tasks run one at a time, in arrival order, so a
 * machine only ever sees one message at a time (ARCHITECTURE, Actors §1).
 */
export class Mailbox {
  #tail: Promise<unknown> = Promise.resolve();
  #pending = 0;

  get idle(): boolean {
    return this.#pending === 0;
  }

  get depth(): number {
    return this.#pending;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(task);
    this.#tail = result.then(
      () => this.#pending--,
      () => this.#pending--,
    );
    return result;
  }

  /** Resolves once every task queued so far has finished. */
  async settled(): Promise<void> {
    while (this.#pending > 0) await this.#tail;
  }
}
