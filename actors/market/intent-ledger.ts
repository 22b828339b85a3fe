/**
 * The intent ledger: every intent signalled on the escrow's deposits, as a durable read model
 * of what makers sold, when, and what they earned on it (the leaderboard and the deposit
 * bundle read it). It follows the indexer's fact stream from its own cursor, as the liquidity
 * book does, and for every fact that names an intent (a retraction included) it reads the
 * intent again with GetIntent rather than fold the fact itself: the indexer's answer folds
 * the standing facts, so a retraction, a re-organisation or a fact delivered twice leaves
 * nothing to undo here.
 *
 * A fulfilled intent also needs the block time of its standing IntentFulfilled, which GetIntent
 * does not carry: the ledger reads the intent's facts (ListFacts) for it. And it prices the
 * fulfilment once, when it first records it, at the node's reference rate for the currency,
 * so its realised profit does not move with the market afterwards. A ledger rebuilt from the
 * first fact (a new log, or a new store) prices every fulfilment at the rates of the rebuild.
 *
 * One reader per cluster, with the cursor and log-epoch rules of actors/chain/fact-follower.ts;
 * writes are conditional on the sequence a document reflects, so a reader that just lost the
 * role cannot put an older reading over a newer one. Reads go to the store, on any node.
 */
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { IntentStatus, type ChainFact, type GetDepositResponse, type GetIntentResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { subjectsOf } from '../../proto/fact-subjects.js';
import { withDeadline } from '../grpc-call.js';
import { FactReadModel, type FactReadModelOptions } from '../chain/fact-read-model.js';
import { factsAbout } from '../chain/subject-facts.js';
import { RateUnavailableError, type RateSource } from '../adapters/rates/rate-source.js';
import type { Collection } from '../store/store.js';
import { DepositFacts } from './deposit-facts.js';
import type { LiquidityBook } from './liquidity-book.js';
import { intentRecord, standingFulfilment, type IntentRecordDoc, type StandingFulfilment } from './intent-records.js';
import { PlatformError } from '../errors/platform-error.js';

export interface IntentLedgerOptions extends FactReadModelOptions {
  /** The escrow whose deposits the intents lock: GetDeposit answers for this one only. */
  escrow: string;
  /** Who made each deposit, where the liquidity book has read it already; GetDeposit otherwise. */
  deposits: Pick<LiquidityBook, 'deposit'>;
  /** The reference rates fulfilments are priced at. */
  rates: RateSource;
  /** The ISO code whose keccak256 an intent's fiat currency is; null when none is. */
  currencyOf(currencyHash: string): string | null;
}

export const INTENT_LEDGER_ROLE = 'intent-ledger';

/** An intent could not be read (or priced) now; the stream resumes from the cursor and reads it again. */
class IntentReadError extends PlatformError {
  override readonly name = 'IntentReadError';
  readonly code = 'INTENT_READ_FAILED';
}

export class IntentLedger extends FactReadModel {
  readonly #o: IntentLedgerOptions;
  readonly #depositFacts: DepositFacts;
  #intents!: Collection<IntentRecordDoc>;

  constructor(options: IntentLedgerOptions) {
    super({ name: INTENT_LEDGER_ROLE, cursorCollection: 'intent_ledger_cursor' }, options);
    this.#o = options;
    this.#depositFacts = new DepositFacts(options.client, options.escrow);
  }

  protected async open(): Promise<void> {
    this.#intents = await this.#o.store.collection<IntentRecordDoc>({
      name: 'intent_ledger',
      indexes: [
        { key: { maker: 1 }, name: 'maker' },
        { key: { depositId: 1 }, name: 'deposit' },
      ],
    });
  }

  protected async startOver(): Promise<void> {
    await this.#intents.deleteMany({});
  }

  /** Every intent recorded: what the leaderboard's snapshots are made of. */
  all(): Promise<IntentRecordDoc[]> {
    return this.#intents.find({});
  }

  /** The intents on one deposit, the latest signalled first. */
  ofDeposit(depositId: string): Promise<IntentRecordDoc[]> {
    return this.#intents.find({ depositId }, { sort: { signaledAt: -1, _id: 1 } });
  }

  intent(intentHash: string): Promise<IntentRecordDoc | null> {
    return this.#intents.findOne({ _id: intentHash.toLowerCase() });
  }

  protected async take(fact: ChainFact): Promise<void> {
    const sequence = Number(fact.sequence);
    for (const subject of subjectsOf(fact)) if ('intentHash' in subject) await this.#refresh(subject.intentHash.toLowerCase(), sequence);
  }

  /** Reads the intent as the log stands now, which is at or past the fact at `sequence`. */
  async #refresh(intentHash: string, sequence: number): Promise<void> {
    const stored = await this.#intents.findOne({ _id: intentHash });
    // Read after this fact was logged: a fact delivered again after a restart changes nothing.
    if (stored && stored.asOfSequence >= sequence) return;
    let answer: GetIntentResponse;
    try {
      answer = await withDeadline<GetIntentResponse>((options, done) => this.#o.client.getIntent({ intentHash }, new Metadata(), options, done));
    } catch (error) {
      if ((error as ServiceError).code !== GrpcStatus.NOT_FOUND) throw new IntentReadError(`intent ${intentHash} could not be read`, { cause: error });
      // Its IntentSignaled left the chain: the indexer knows no such intent.
      await this.#intents.deleteOne({ _id: intentHash, asOfSequence: { $lte: sequence } });
      return;
    }
    const intent = answer.intent!;
    const fulfilment = answer.status === IntentStatus.INTENT_STATUS_FULFILLED ? await this.#fulfilment(intentHash, answer) : null;
    const referenceRate = fulfilment ? await this.#reference(stored, fulfilment, intent.fiatCurrency) : null;
    await this.putLatest(
      this.#intents,
      intentRecord({
        answer,
        fulfilment,
        referenceRate,
        maker: await this.#makerOf(intent.depositId),
        asOfSequence: Math.max(Number(answer.asOfSequence), sequence),
        updatedAt: this.#o.system.clock.now(),
      }),
    );
  }

  /** The standing IntentFulfilled behind a FULFILLED answer, read from the intent's facts. */
  async #fulfilment(intentHash: string, answer: GetIntentResponse): Promise<StandingFulfilment> {
    const facts = await factsAbout(this.#o.client, { $case: 'intentHash', value: intentHash }).catch((error: unknown) => {
      throw new IntentReadError(`the facts of intent ${intentHash} could not be read`, { cause: error });
    });
    const fulfilment = standingFulfilment(facts);
    // The log moved between the two reads (a fulfilment taken back, or another one logged): read both again.
    if (!fulfilment || fulfilment.sequence > Number(answer.asOfSequence)) {
      throw new IntentReadError(`intent ${intentHash} changed while it was read; reading it again`);
    }
    return fulfilment;
  }

  /**
   * The reference rate of the fulfilment: the one recorded with it, or the rate source's now
   * when this fulfilment is new. A currency the source does not price has none; a source that
   * cannot answer now holds the ledger back rather than price the fulfilment later at random.
   */
  async #reference(stored: IntentRecordDoc | null, fulfilment: StandingFulfilment, currencyHash: string): Promise<bigint | null> {
    if (stored?.fulfilmentFactId === fulfilment.factId) return stored.referenceRate === null ? null : BigInt(stored.referenceRate);
    const code = this.#o.currencyOf(currencyHash);
    if (code === null) return null;
    try {
      return await this.#o.rates.currencyPerUsd(code);
    } catch (error) {
      if (error instanceof RateUnavailableError) throw new IntentReadError(`no ${code} reference rate now to price a fulfilment with`, { cause: error });
      throw error;
    }
  }

  /** The deposit's depositor, lower-case. */
  async #makerOf(depositId: string): Promise<string> {
    const known = await this.#o.deposits.deposit(depositId);
    if (known) return known.depositor.toLowerCase();
    let answer: GetDepositResponse;
    try {
      answer = await this.#depositFacts.deposit(depositId);
    } catch (error) {
      // NOT_FOUND too: the intent stands on a deposit the log does not hold now, so the log is moving under the read.
      throw new IntentReadError(`deposit ${depositId} could not be read`, { cause: error });
    }
    return answer.deposit!.depositor.toLowerCase();
  }
}
