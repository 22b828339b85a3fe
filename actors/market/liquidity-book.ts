/**
 * The liquidity book: the makers' deposits in the escrow as a read model that the payment
 * flow asks for quotes. It follows the indexer's fact stream from its own cursor, and for
 * every fact about a deposit (a retraction included) it reads the deposit again with
 * GetDeposit rather than fold the fact itself. The indexer's answer already folds the
 * standing facts by the escrow's own arithmetic, so a retraction, a re-organisation or a
 * fact delivered twice leaves nothing to undo here.
 *
 * One reader per cluster, with the cursor and log-epoch rules of
 * actors/chain/fact-read-model.ts; a new log empties the book before it is read. Writes are
 * conditional on the sequence the document reflects, so a reader that has just lost the
 * role cannot put an older answer over a newer one. Quotes read the store, on any node.
 */
import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import type { Hex } from 'viem';
import type { ChainFact, GetDepositResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { subjectsOf } from '../../proto/fact-subjects.js';
import { FactReadModel, type FactReadModelOptions } from '../chain/fact-read-model.js';
import type { Collection } from '../store/store.js';
import {
  bookDeposit,
  checkOfferQuery,
  depositDocument,
  offerKey,
  rankOffers,
  takeableRanges,
  type BookDeposit,
  type TakeableRange,
  type DepositOffer,
  type LiquidityDepositDoc,
  type OfferQuery,
  type PriceBand,
} from './deposit-offers.js';
import { DepositFacts } from './deposit-facts.js';
import { PlatformError } from '../errors/platform-error.js';

export interface LiquidityBookOptions extends FactReadModelOptions {
  /** The escrow whose deposits the book holds: GetDeposit answers for this one only. */
  escrow: string;
}

export const LIQUIDITY_BOOK_ROLE = 'liquidity-book';

/** A deposit could not be read; the stream resumes from the cursor and reads it again. */
class DepositReadError extends PlatformError {
  override readonly name = 'DepositReadError';
  readonly code = 'DEPOSIT_READ_FAILED';
}

export class LiquidityBook extends FactReadModel {
  readonly #o: LiquidityBookOptions;
  readonly #depositFacts: DepositFacts;
  #deposits!: Collection<LiquidityDepositDoc>;

  constructor(options: LiquidityBookOptions) {
    super({ name: LIQUIDITY_BOOK_ROLE, cursorCollection: 'liquidity_cursor' }, options);
    this.#o = options;
    this.#depositFacts = new DepositFacts(options.client, options.escrow);
  }

  protected async open(): Promise<void> {
    this.#deposits = await this.#o.store.collection<LiquidityDepositDoc>({ name: 'liquidity_deposits', indexes: [{ key: { offers: 1 }, name: 'offers' }] });
  }

  protected async startOver(): Promise<void> {
    await this.#deposits.deleteMany({});
  }

  /** The deposits that can take an intent of `usdcAmount` on this method and currency, the best rate first. */
  async offers(query: OfferQuery): Promise<DepositOffer[]> {
    checkOfferQuery(query);
    // The index narrows by pair; amounts are decimal strings, which only compare exactly as bigints.
    return rankOffers(await this.#deposits.find({ offers: offerKey(query.paymentMethod, query.currency) }), query);
  }

  /** What each deposit pricing this method and currency (inside `band`, when given) can take now, whatever the amount. */
  async ranges(paymentMethod: Hex, currency: Hex, band?: PriceBand): Promise<TakeableRange[]> {
    return takeableRanges(await this.#deposits.find({ offers: offerKey(paymentMethod, currency) }), paymentMethod, currency, band);
  }

  async deposit(depositId: string): Promise<BookDeposit | null> {
    const doc = await this.#deposits.findOne({ _id: depositId });
    return doc && bookDeposit(doc);
  }

  /** Every deposit not closed, as stored: what the orderbook's snapshots are made of. */
  openDeposits(): Promise<LiquidityDepositDoc[]> {
    return this.#deposits.find({ closed: false });
  }

  /** Every deposit, closed ones included, as stored: a maker's lifetime liquidity counts them all (the leaderboard). */
  allDeposits(): Promise<LiquidityDepositDoc[]> {
    return this.#deposits.find({});
  }

  /** How many deposits the book holds, closed ones included. */
  count(): Promise<number> {
    return this.#deposits.count({});
  }

  protected async take(fact: ChainFact): Promise<void> {
    const sequence = Number(fact.sequence);
    for (const subject of subjectsOf(fact)) if ('depositId' in subject) await this.#refresh(subject.depositId, sequence);
  }

  /** Reads the deposit as the log stands now, which is at or past the fact at `sequence`. */
  async #refresh(depositId: string, sequence: number): Promise<void> {
    const stored = await this.#deposits.findOne({ _id: depositId });
    // Read after this fact was logged: a fact delivered again after a restart changes nothing.
    if (stored && stored.asOfSequence >= sequence) return;
    let answer: GetDepositResponse;
    try {
      answer = await this.#depositFacts.deposit(depositId);
    } catch (error) {
      if ((error as ServiceError).code !== GrpcStatus.NOT_FOUND) throw new DepositReadError(`deposit ${depositId} could not be read`, { cause: error });
      // Its DepositReceived left the chain (or it is another escrow's): the indexer knows no such deposit.
      await this.#deposits.deleteOne({ _id: depositId, asOfSequence: { $lte: sequence } });
      return;
    }
    await this.putLatest(this.#deposits, depositDocument(answer, Math.max(Number(answer.asOfSequence), sequence), this.#o.system.clock.now()));
  }
}
