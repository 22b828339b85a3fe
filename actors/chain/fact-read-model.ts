/**
 * A read model over the indexer's facts (the liquidity book, the intent ledger): one
 * reader per cluster following the fact stream from its own cursor, with the cursor and
 * log-epoch rules of fact-follower.ts. A subclass opens its collections, takes each fact,
 * and empties what it keeps before a new log is read from its first fact, whose sequences
 * count afresh.
 */
import type { Logger } from 'pino';
import type { ChainFact, IndexerServiceClient } from '../../proto/gen/peer/indexer/v1/indexer.js';
import type { ActorSystem } from '../runtime/actor-system.js';
import { DuplicateKeyError } from '../errors.js';
import type { Collection, Store, StoredDocument } from '../store/store.js';
import { FactFollower } from './fact-follower.js';

export interface FactReadModelOptions {
  system: ActorSystem;
  store: Store;
  client: IndexerServiceClient;
  logger: Logger;
  /** Backoff bounds when the stream or a read fails. */
  minRetryMs?: number;
  maxRetryMs?: number;
}

export abstract class FactReadModel {
  readonly #follower: FactFollower;

  protected constructor(role: { name: string; cursorCollection: string }, options: FactReadModelOptions) {
    this.#follower = new FactFollower({
      ...role,
      system: options.system,
      store: options.store,
      client: options.client,
      logger: options.logger,
      take: (fact) => this.take(fact),
      beforeStartOver: () => this.startOver(),
      ...(options.minRetryMs === undefined ? {} : { minRetryMs: options.minRetryMs }),
      ...(options.maxRetryMs === undefined ? {} : { maxRetryMs: options.maxRetryMs }),
    });
  }

  /** The last fact taken. */
  get afterSequence(): number {
    return this.#follower.afterSequence;
  }

  /** Whether this node is the one following the facts now. */
  get reading(): boolean {
    return this.#follower.reading;
  }

  /** Opens the model for reads on this node, and follows the facts while this node holds the role. */
  async start(): Promise<void> {
    await this.open();
    await this.#follower.start();
  }

  stop(): Promise<void> {
    return this.#follower.stop();
  }

  /** Resolves once every fact up to `sequence` is taken. */
  delivered(sequence: number): Promise<void> {
    return this.#follower.delivered(sequence);
  }

  /** Opens the collections the model keeps. */
  protected abstract open(): Promise<void>;

  /** Takes one fact; a throw stops the stream, which resumes from the cursor. */
  protected abstract take(fact: ChainFact): Promise<void>;

  /** Empties what the model keeps: the documents' sequences count in the old log and would refuse the new log's answers. */
  protected abstract startOver(): Promise<void>;

  /**
   * Writes `doc` unless `collection` already holds a later reading of it: a reader that has
   * just lost the role cannot put an older reading over a newer one.
   */
  protected async putLatest<T extends StoredDocument & { asOfSequence: number }>(collection: Collection<T>, doc: T): Promise<void> {
    const notLater = { _id: doc._id, asOfSequence: { $lte: doc.asOfSequence } };
    if (await collection.replaceOne(notLater, doc)) return;
    await collection.insertOne(doc).catch(async (error: unknown) => {
      if (!(error instanceof DuplicateKeyError)) throw error;
      // Another reader wrote it first: keep whichever reading is later.
      await collection.replaceOne(notLater, doc);
    });
  }
}
