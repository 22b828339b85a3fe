/**
 * Following the indexer's fact log from a saved cursor, one reader per cluster: what the
 * chain-facts reader (facts into actors) and the liquidity book (deposits as a read model)
 * both do, with the rules in one place.
 *
 * - The reading runs as a singleton role of the actor system, on the node holding the
 *   lease of the shard the role's name hashes to, and stops when that node loses it.
 * - Facts are taken one at a time, in order; the cursor moves only after a fact is taken,
 *   and only forward: each move is conditional on the value read, and a reader that finds
 *   it moved re-reads it and resumes there. A crash takes the facts since the last saved
 *   cursor again, so what `take` does must be harmless the second time.
 * - The cursor counts in one fact log, named by its epoch. When the indexer serves another
 *   log (FAILED_PRECONDITION), the cursor's sequence means nothing there: the reader goes
 *   back to the first fact, after `beforeStartOver` has dropped whatever counts in the old log.
 * - A failing stream or `take` is resumed from the cursor with backoff.
 */
import { status as GrpcStatus, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { ChainFact, IndexerServiceClient, StreamFactsResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { DuplicateKeyError } from '../errors.js';
import type { ActorSystem } from '../runtime/actor-system.js';
import type { Collection, Store } from '../store/store.js';
import { PlatformError } from '../errors/platform-error.js';

type CursorDoc = {
  _id: string;
  afterSequence: number;
  /** The log `afterSequence` counts in; empty (or absent, before epochs) until the first fact names it. */
  epoch?: string;
};

export interface FactFollowerOptions {
  /** The singleton role's name and the cursor's id. */
  name: string;
  /** The collection the cursor is kept in. */
  cursorCollection: string;
  system: ActorSystem;
  store: Store;
  client: IndexerServiceClient;
  logger: Logger;
  /** Takes one fact; a throw stops the stream, which resumes from the cursor. */
  take(fact: ChainFact): Promise<void>;
  /** Runs before the cursor goes back to the first fact of another log. */
  beforeStartOver?(): Promise<void>;
  /** Backoff bounds when the stream or a `take` fails. */
  minRetryMs?: number;
  maxRetryMs?: number;
}

/** Another reader moved the cursor: resume from where it is now. */
class CursorMovedError extends PlatformError {
  override readonly name = 'CursorMovedError';
  readonly code = 'CURSOR_MOVED';
}

export class FactFollower {
  readonly #o: FactFollowerOptions & { minRetryMs: number; maxRetryMs: number };
  #cursors!: Collection<CursorDoc>;
  #stream: ClientReadableStream<StreamFactsResponse> | null = null;
  #running = false;
  #done: Promise<void> = Promise.resolve();
  #stopWaiting: (() => void) | null = null;
  #delivered = new Set<() => void>();
  #afterSequence = 0;
  #epoch = '';
  #role: { release(): Promise<void> } | null = null;

  constructor(options: FactFollowerOptions) {
    this.#o = { minRetryMs: 100, maxRetryMs: 5_000, ...options };
  }

  /** The last fact taken. */
  get afterSequence(): number {
    return this.#afterSequence;
  }

  /** Whether this node is the one reading facts now. */
  get reading(): boolean {
    return this.#running;
  }

  /** Opens the cursor, and reads facts while this node holds the role. */
  async start(): Promise<void> {
    this.#cursors = await this.#o.store.collection<CursorDoc>({ name: this.#o.cursorCollection, indexes: [] });
    await this.#cursors.insertOne({ _id: this.#o.name, afterSequence: 0 }).catch((error: unknown) => {
      if (!(error instanceof DuplicateKeyError)) throw error;
    });
    this.#role = this.#o.system.singleton(this.#o.name, { start: () => this.#read(), stop: () => this.#halt() });
  }

  async stop(): Promise<void> {
    await this.#role?.release();
    this.#role = null;
  }

  /** Resolves once every fact up to `sequence` has been taken. */
  delivered(sequence: number): Promise<void> {
    if (this.#afterSequence >= sequence) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.#afterSequence < sequence) return;
        this.#delivered.delete(check);
        resolve();
      };
      this.#delivered.add(check);
    });
  }

  /** Waits `ms`, or less when the reading stops meanwhile: for a `take` that retries. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#stopWaiting = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async #read(): Promise<void> {
    // Another node may have read on while this one did not hold the role.
    const cursor = await this.#cursors.findOne({ _id: this.#o.name });
    this.#afterSequence = cursor?.afterSequence ?? 0;
    this.#epoch = cursor?.epoch ?? '';
    this.#running = true;
    this.#done = this.#consume();
  }

  async #halt(): Promise<void> {
    this.#running = false;
    this.#stream?.cancel();
    this.#stopWaiting?.();
    await this.#done;
  }

  async #consume(): Promise<void> {
    let failures = 0;
    while (this.#running) {
      try {
        await this.#follow();
        failures = 0;
      } catch (error) {
        if (!this.#running) break;
        if (error instanceof CursorMovedError) {
          this.#o.logger.warn({ afterSequence: this.#afterSequence }, error.message);
          continue;
        }
        if ((error as ServiceError).code === GrpcStatus.FAILED_PRECONDITION) {
          await this.#startOver((error as ServiceError).details);
          continue;
        }
        failures++;
        // A take's own failure wraps the gRPC error it met, as its cause.
        const code = ((error as Error).cause as ServiceError | undefined)?.code ?? (error as ServiceError).code;
        const level = code === GrpcStatus.UNAVAILABLE && failures < 3 ? 'debug' : 'warn';
        this.#o.logger[level]({ err: error, afterSequence: this.#afterSequence }, `${this.#o.name} interrupted; resuming from its cursor`);
        await this.wait(Math.min(this.#o.maxRetryMs, this.#o.minRetryMs * 2 ** Math.min(failures, 10)));
      }
    }
  }

  /** One stream, until it fails or the reading stops. Facts are taken one at a time, in order. */
  #follow(): Promise<void> {
    return new Promise((resolve, reject) => {
      const stream = this.#o.client.streamFacts({ afterSequence: BigInt(this.#afterSequence), logEpoch: this.#epoch });
      this.#stream = stream;
      let chain = Promise.resolve();
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        stream.cancel();
        reject(error);
      };
      stream.on('data', (response: StreamFactsResponse) => {
        stream.pause();
        chain = chain
          .then(() => this.#take(response.fact!))
          .then(
            () => void stream.resume(),
            (error: unknown) => fail(error),
          );
      });
      stream.on('error', (error: ServiceError) => {
        if (!this.#running && error.code === GrpcStatus.CANCELLED) return void chain.then(resolve);
        fail(error);
      });
      stream.on('end', () => void chain.then(() => (this.#running ? fail(new Error('the indexer ended the fact stream')) : resolve())));
    });
  }

  async #take(fact: ChainFact): Promise<void> {
    const sequence = Number(fact.sequence);
    if (sequence <= this.#afterSequence) return;
    await this.#o.take(fact);
    const previous = this.#afterSequence;
    const epoch = this.#epoch || fact.logEpoch;
    if (!(await this.#cursors.updateOne({ _id: this.#o.name, afterSequence: previous }, { $set: { afterSequence: sequence, epoch } }))) {
      const stored = (await this.#cursors.findOne({ _id: this.#o.name }))?.afterSequence ?? 0;
      this.#afterSequence = Math.max(previous, stored);
      throw new CursorMovedError(`the ${this.#o.name} cursor moved from ${previous} to ${stored} under this reader; resuming from ${this.#afterSequence}`);
    }
    this.#afterSequence = sequence;
    this.#epoch = epoch;
    for (const check of [...this.#delivered]) check();
  }

  /**
   * The indexer serves another log than the cursor counts in: back to its first fact. What
   * counts in the old log goes first; were the cursor reset first, a crash in between would
   * leave it counting against the new log.
   */
  async #startOver(reason: string): Promise<void> {
    const previous = this.#afterSequence;
    this.#o.logger.warn(
      { afterSequence: previous, epoch: this.#epoch, reason },
      `the indexer serves another fact log; ${this.#o.name} reads it from the first fact`,
    );
    await this.#o.beforeStartOver?.();
    if (await this.#cursors.updateOne({ _id: this.#o.name, afterSequence: previous }, { $set: { afterSequence: 0, epoch: '' } })) {
      this.#afterSequence = 0;
      this.#epoch = '';
      return;
    }
    // Another reader moved the cursor meanwhile: resume from what it saved, which the next stream checks again.
    const stored = await this.#cursors.findOne({ _id: this.#o.name });
    this.#afterSequence = stored?.afterSequence ?? 0;
    this.#epoch = stored?.epoch ?? '';
  }
}
