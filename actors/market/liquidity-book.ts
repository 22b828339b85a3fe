/**
 * The liquidity book: the makers' deposits in the escrow as a read model that the payment
 * flow asks for quotes. It follows the indexer's fact stream from its own cursor, and for
 * every fact about a deposit (a retraction included) it reads the deposit again with
 * GetDeposit rather than fold the fact itself. The indexer's answer already folds the
 * standing facts by the escrow's own arithmetic, so a retraction, a re-organisation or a
 * fact delivered twice leaves nothing to undo here.
 *
 * One reader per cluster, as a singleton role, like the chain-facts reader
 * (actors/chain/chain-facts.ts), with the same cursor and log-epoch rules. Writes are
 * conditional on the sequence the document reflects, so a reader that has just lost the
 * role cannot put an older answer over a newer one. Quotes read the store, on any node.
 */
import { Metadata, status as GrpcStatus, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { ChainFact, GetDepositResponse, IndexerServiceClient, StreamFactsResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { subjectsOf } from '../../proto/fact-subjects.js';
import { DuplicateKeyError } from '../errors.js';
import { withDeadline } from '../grpc-call.js';
import type { ActorSystem } from '../runtime/actor-system.js';
import type { Collection, Store } from '../store/store.js';
import {
  bookDeposit,
  checkOfferQuery,
  depositDocument,
  offerKey,
  rankOffers,
  type BookDeposit,
  type DepositOffer,
  type LiquidityDepositDoc,
  type OfferQuery,
} from './deposit-offers.js';

export interface LiquidityBookOptions {
  system: ActorSystem;
  store: Store;
  client: IndexerServiceClient;
  logger: Logger;
  /** The escrow whose deposits the book holds: GetDeposit answers for this one only. */
  escrow: string;
  /** Backoff bounds when the stream or a read fails. */
  minRetryMs?: number;
  maxRetryMs?: number;
}

type CursorDoc = {
  _id: string;
  afterSequence: number;
  /** The log `afterSequence` counts in; empty until the first fact names it. */
  epoch?: string;
};

export const LIQUIDITY_BOOK_ROLE = 'liquidity-book';
const CURSOR_ID = 'liquidity-book';

/** Another reader moved the cursor: resume from where it is now. */
class CursorMovedError extends Error {
  override readonly name = 'CursorMovedError';
}

/** A deposit could not be read; the stream resumes from the cursor and reads it again. */
class DepositReadError extends Error {
  override readonly name = 'DepositReadError';
}

export class LiquidityBook {
  readonly #o: Required<LiquidityBookOptions>;
  #deposits!: Collection<LiquidityDepositDoc>;
  #cursors!: Collection<CursorDoc>;
  #stream: ClientReadableStream<StreamFactsResponse> | null = null;
  #running = false;
  #done: Promise<void> = Promise.resolve();
  #stopRetry: (() => void) | null = null;
  #delivered = new Set<() => void>();
  #afterSequence = 0;
  #epoch = '';
  #role: { release(): Promise<void> } | null = null;

  constructor(options: LiquidityBookOptions) {
    this.#o = { minRetryMs: 100, maxRetryMs: 5_000, ...options };
  }

  /** The last fact the book has taken. */
  get afterSequence(): number {
    return this.#afterSequence;
  }

  /** Whether this node is the one following the facts now. */
  get reading(): boolean {
    return this.#running;
  }

  /** Opens the book for queries on this node, and follows the facts while this node holds the role. */
  async start(): Promise<void> {
    this.#deposits = await this.#o.store.collection<LiquidityDepositDoc>({ name: 'liquidity_deposits', indexes: [{ key: { offers: 1 }, name: 'offers' }] });
    this.#cursors = await this.#o.store.collection<CursorDoc>({ name: 'liquidity_cursor', indexes: [] });
    await this.#cursors.insertOne({ _id: CURSOR_ID, afterSequence: 0 }).catch((error: unknown) => {
      if (!(error instanceof DuplicateKeyError)) throw error;
    });
    this.#role = this.#o.system.singleton(LIQUIDITY_BOOK_ROLE, { start: () => this.#read(), stop: () => this.#halt() });
  }

  async stop(): Promise<void> {
    await this.#role?.release();
    this.#role = null;
  }

  /** Resolves once every fact up to `sequence` is in the book. */
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

  /** The deposits that can take an intent of `usdcAmount` on this method and currency, the best rate first. */
  async offers(query: OfferQuery): Promise<DepositOffer[]> {
    checkOfferQuery(query);
    // The index narrows by pair; amounts are decimal strings, which only compare exactly as bigints.
    return rankOffers(await this.#deposits.find({ offers: offerKey(query.paymentMethod, query.currency) }), query);
  }

  async deposit(depositId: string): Promise<BookDeposit | null> {
    const doc = await this.#deposits.findOne({ _id: depositId });
    return doc && bookDeposit(doc);
  }

  /** How many deposits the book holds, closed ones included. */
  count(): Promise<number> {
    return this.#deposits.count({});
  }

  async #read(): Promise<void> {
    // Another node may have read on while this one did not hold the role.
    const cursor = await this.#cursors.findOne({ _id: CURSOR_ID });
    this.#afterSequence = cursor?.afterSequence ?? 0;
    this.#epoch = cursor?.epoch ?? '';
    this.#running = true;
    this.#done = this.#consume();
  }

  async #halt(): Promise<void> {
    this.#running = false;
    this.#stream?.cancel();
    this.#stopRetry?.();
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
        const code = (error instanceof DepositReadError ? (error.cause as ServiceError) : (error as ServiceError)).code;
        const level = code === GrpcStatus.UNAVAILABLE && failures < 3 ? 'debug' : 'warn';
        this.#o.logger[level]({ err: error, afterSequence: this.#afterSequence }, 'liquidity book interrupted; resuming from its cursor');
        await this.#pause(Math.min(this.#o.maxRetryMs, this.#o.minRetryMs * 2 ** Math.min(failures, 10)));
      }
    }
  }

  /** One stream, until it fails or the book stops. Facts are taken one at a time, in order. */
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
    for (const subject of subjectsOf(fact)) if ('depositId' in subject) await this.#refresh(subject.depositId, sequence);
    const previous = this.#afterSequence;
    const epoch = this.#epoch || fact.logEpoch;
    if (!(await this.#cursors.updateOne({ _id: CURSOR_ID, afterSequence: previous }, { $set: { afterSequence: sequence, epoch } }))) {
      const stored = (await this.#cursors.findOne({ _id: CURSOR_ID }))?.afterSequence ?? 0;
      this.#afterSequence = Math.max(previous, stored);
      throw new CursorMovedError(`the liquidity-book cursor moved from ${previous} to ${stored} under this reader; resuming from ${this.#afterSequence}`);
    }
    this.#afterSequence = sequence;
    this.#epoch = epoch;
    for (const check of [...this.#delivered]) check();
  }

  /** Reads the deposit as the log stands now, which is at or past the fact at `sequence`. */
  async #refresh(depositId: string, sequence: number): Promise<void> {
    const stored = await this.#deposits.findOne({ _id: depositId });
    // Read after this fact was logged: a fact delivered again after a restart changes nothing.
    if (stored && stored.asOfSequence >= sequence) return;
    let answer: GetDepositResponse;
    try {
      answer = await withDeadline<GetDepositResponse>((options, done) =>
        this.#o.client.getDeposit({ escrow: this.#o.escrow, depositId }, new Metadata(), options, done),
      );
    } catch (error) {
      if ((error as ServiceError).code !== GrpcStatus.NOT_FOUND) throw new DepositReadError(`deposit ${depositId} could not be read`, { cause: error });
      // Its DepositReceived left the chain (or it is another escrow's): the indexer knows no such deposit.
      await this.#deposits.deleteOne({ _id: depositId, asOfSequence: { $lte: sequence } });
      return;
    }
    await this.#save(depositDocument(answer, Math.max(Number(answer.asOfSequence), sequence), this.#o.system.clock.now()));
  }

  /** Writes `doc` unless the book already holds a later reading of the deposit. */
  async #save(doc: LiquidityDepositDoc): Promise<void> {
    const notLater = { _id: doc._id, asOfSequence: { $lte: doc.asOfSequence } };
    if (await this.#deposits.replaceOne(notLater, doc)) return;
    await this.#deposits.insertOne(doc).catch(async (error: unknown) => {
      if (!(error instanceof DuplicateKeyError)) throw error;
      // Another reader wrote it first: keep whichever reading is later.
      await this.#deposits.replaceOne(notLater, doc);
    });
  }

  /**
   * The indexer serves another log than the cursor counts in: back to its first fact. The
   * documents' sequences count in the old log and would refuse the new log's answers, so they
   * go first; were the cursor reset first, a crash in between would leave them refusing.
   */
  async #startOver(reason: string): Promise<void> {
    const previous = this.#afterSequence;
    this.#o.logger.warn({ afterSequence: previous, epoch: this.#epoch, reason }, 'the indexer serves another fact log; rebuilding the liquidity book from its first fact');
    await this.#deposits.deleteMany({});
    if (await this.#cursors.updateOne({ _id: CURSOR_ID, afterSequence: previous }, { $set: { afterSequence: 0, epoch: '' } })) {
      this.#afterSequence = 0;
      this.#epoch = '';
      return;
    }
    // Another reader moved the cursor meanwhile: resume from what it saved, which the next stream checks again.
    const stored = await this.#cursors.findOne({ _id: CURSOR_ID });
    this.#afterSequence = stored?.afterSequence ?? 0;
    this.#epoch = stored?.epoch ?? '';
  }

  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#stopRetry = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
