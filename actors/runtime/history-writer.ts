/**
 * Inserts the history records an actor's document holds into the history collection,
 * after the write that saved them and off the turn's reply (turn-record.ts). One
 * flush runs per activation at a time; a turn landing meanwhile has it run once more.
 * A failed insert leaves the record in the document, where the inspector still reads
 * it, and the actor's next write or load tries again. No fence is needed: a record is
 * in a document only if its write landed, and its insert is idempotent by its id.
 */
import type { Logger } from 'pino';
import { formatAddress } from '../address.js';
import type { Activation } from './activation.js';
import { SerialRuns } from './serial-runs.js';
import type { TurnHistory } from './turn-history.js';

export class HistoryWriter {
  readonly #flushes: SerialRuns;
  #stopped = false;

  constructor(
    private readonly history: () => TurnHistory,
    logger: Logger,
  ) {
    this.#flushes = new SerialRuns({
      run: (activation) => this.#flush(activation),
      failed: (error, activation) =>
        logger.warn({ err: error, actor: formatAddress(activation.address) }, 'history insert failed; the record stays in the document until the next try'),
      open: () => !this.#stopped,
    });
  }

  /** Flushes this activation's records unless a flush is already running (then it runs once more). */
  schedule(activation: Activation): void {
    this.#flushes.schedule(activation);
  }

  /** Resolves when no flush is running. */
  idle(): Promise<void> {
    return this.#flushes.idle();
  }

  /** Starts no more flushes; `wait` lets the running ones finish. */
  async stop({ wait }: { wait: boolean }): Promise<void> {
    this.#stopped = true;
    if (wait) await this.idle();
  }

  async #flush(activation: Activation): Promise<void> {
    for (const record of activation.unrecorded()) {
      await this.history().insert(record);
      activation.markRecorded(record._id);
    }
  }
}
