/**
 * The intent ledger's pure half: an intent as the indexer's GetIntent tells it, with the
 * maker it counts for, when it was fulfilled and what the maker earned on it, kept as plain
 * data; and the rules that make those figures. Apart from the store and the fact stream so
 * that every rule can be tested on plain values.
 */
import { floorDiv } from '../../machines/money.js';
import type { IntentRecordDoc, IntentStatusName } from '../../machines/market/market-records.js';
import { IntentStatus, type ChainFact, type GetIntentResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';

export type { IntentRecordDoc, IntentStatusName } from '../../machines/market/market-records.js';

/** The standing fulfilment of an intent, from the facts about it. */
export interface StandingFulfilment {
  factId: string;
  sequence: number;
  fulfilledAt: number;
}

/** An 18-decimal conversion rate over a 6-decimal reference rate. */
const RATE_SCALE = 10n ** 12n;

/**
 * What the maker earned on `released` USDC sold at `conversionRate` (fiat per USDC, 18
 * decimals) when the market paid `referencePerUsd` (fiat per USD, 6 decimals): the fiat
 * received, in USD at the reference, less the USDC given up.
 *
 *   profit = released × rate / reference − released = released × (rate − reference) / reference
 *
 * in USDC base units, rounded toward negative infinity: a gain is never overstated and a loss
 * never understated, by less than one base unit.
 */
export function realizedProfitUsd(released: bigint, conversionRate: bigint, referencePerUsd: bigint): bigint {
  if (referencePerUsd <= 0n) throw new RangeError(`a reference rate must be above zero, not ${referencePerUsd}`);
  const reference = referencePerUsd * RATE_SCALE;
  return floorDiv(released * (conversionRate - reference), reference);
}

/**
 * The facts among `facts` (about one subject, in log order, retractions included, as ListFacts
 * pages them) that stand, in log order. A retraction carries the id of the fact it takes back;
 * a fact logged again later (a fork that came back) stands again.
 */
export function standingFacts(facts: readonly ChainFact[]): ChainFact[] {
  const standing = new Map<string, ChainFact>();
  for (const fact of facts) {
    standing.delete(fact.id);
    if (!fact.retracted) standing.set(fact.id, fact);
  }
  return [...standing.values()];
}

/** The IntentFulfilled that stands among an intent's facts, or null. */
export function standingFulfilment(facts: readonly ChainFact[]): StandingFulfilment | null {
  const found = standingFacts(facts).findLast((fact) => fact.event?.$case === 'intentFulfilled');
  return found ? { factId: found.id, sequence: Number(found.sequence), fulfilledAt: Number(found.blockTimestamp) } : null;
}

const STATUS_NAMES: Partial<Record<IntentStatus, IntentStatusName>> = {
  [IntentStatus.INTENT_STATUS_SIGNALED]: 'SIGNALED',
  [IntentStatus.INTENT_STATUS_FULFILLED]: 'FULFILLED',
  [IntentStatus.INTENT_STATUS_PRUNED]: 'PRUNED',
};

export interface RecordInputs {
  answer: GetIntentResponse;
  /** Required exactly when the answer is FULFILLED. */
  fulfilment: StandingFulfilment | null;
  /** The reference rate the fulfilment is priced at (fiat per USD, 6 decimals); null when there is none. */
  referenceRate: bigint | null;
  maker: string;
  asOfSequence: number;
  updatedAt: number;
}

/** The document for a GetIntent answer and what the ledger found beside it. */
export function intentRecord({ answer, fulfilment, referenceRate, maker, asOfSequence, updatedAt }: RecordInputs): IntentRecordDoc {
  const intent = answer.intent;
  if (!intent) throw new Error('a GetIntent answer without its IntentSignaled');
  const status = STATUS_NAMES[answer.status];
  if (!status) throw new Error(`a GetIntent answer with status ${answer.status}`);
  const fulfilled = status === 'FULFILLED' ? answer.fulfilled : undefined;
  if ((fulfilled === undefined) !== (fulfilment === null))
    throw new Error(`intent ${intent.intentHash}: a fulfilment time goes with a FULFILLED answer, and only with one`);
  const protocolFee = fulfilled ? BigInt(answer.protocolFee) : 0n;
  const referrerFee = fulfilled ? BigInt(answer.referrerFee) : 0n;
  const net = fulfilled ? BigInt(fulfilled.amount) : 0n;
  // The orchestrator pays both fees out of the released amount and the taker the rest (Orchestrator.sol _payOut).
  const released = net + protocolFee + referrerFee;
  const reference = fulfilled ? referenceRate : null;
  return {
    _id: intent.intentHash.toLowerCase(),
    depositId: intent.depositId,
    maker: maker.toLowerCase(),
    paymentMethod: intent.paymentMethod.toLowerCase(),
    fiatCurrency: intent.fiatCurrency.toLowerCase(),
    amount: intent.amount,
    conversionRate: intent.conversionRate,
    status,
    signaledAt: Number(intent.timestamp),
    fulfilledAt: fulfilment?.fulfilledAt ?? null,
    released: released.toString(),
    netToTaker: net.toString(),
    protocolFee: protocolFee.toString(),
    referrerFee: referrerFee.toString(),
    fulfilmentFactId: fulfilment?.factId ?? null,
    referenceRate: reference === null ? null : reference.toString(),
    realizedProfitUsd: reference === null ? null : realizedProfitUsd(released, BigInt(intent.conversionRate), reference).toString(),
    asOfSequence,
    updatedAt,
  };
}
