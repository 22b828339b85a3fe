/**
 * The liquidity book's pure half: a deposit as the indexer's GetDeposit tells it, kept as
 * plain data, and the rules that turn stored deposits into offers for one payment. Apart
 * from the store and the fact stream so that every rule can be tested on plain documents.
 */
import { zeroAddress, type Hex } from 'viem';
import { compare } from '../../machines/money.js';
import type { LiquidityDepositDoc } from '../../machines/market/market-records.js';
import { isExtremeSpread } from '../../machines/market/orderbook-query.js';
import { spreadBpsOf } from '../../machines/market/orderbook-rows.js';
import type { GetDepositResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';

export type { LiquidityDepositDoc } from '../../machines/market/market-records.js';

/** A deposit as the book holds it, in money's own type. */
export interface BookDeposit {
  depositId: string;
  depositor: string;
  token: string;
  available: bigint;
  locked: bigint;
  intentMin: bigint;
  intentMax: bigint;
  closed: boolean;
  isPrivate: boolean;
  sellerAutomatedRelease: boolean;
  disputeProtection: boolean;
  methods: { paymentMethod: Hex; payeeDetails: Hex; currencies: { currency: Hex; minConversionRate: bigint }[] }[];
  asOfSequence: number;
}

export interface OfferQuery {
  /** keccak256 of the platform id. */
  paymentMethod: Hex;
  /** keccak256 of the ISO currency code. */
  currency: Hex;
  /** USDC base units the intent would lock. */
  usdcAmount: bigint;
  /** payeeDetails hashes the buyer must not be sent to (say, one that just failed them). */
  excludedPayees?: readonly string[];
  /** At most this many offers, the best first; all of them when absent. */
  limit?: number;
  /** Offers priced outside it are left out; absent, none is (no reference rate prices the currency). */
  band?: PriceBand;
}

/**
 * How far from the market a floor may sit and still be quoted: the orderbook's extreme-spread
 * rule. A floor set in the wrong unit (USDC per fiat instead of fiat per USDC) is off by the
 * square of the rate, about 22,500 times for JPY, and would rank first for the buyer.
 */
export interface PriceBand {
  /** Fiat per USD, 6 decimals. */
  referenceRate: bigint;
  /** Basis points from the reference, either way, beyond which a floor is extreme. */
  extremeSpreadBps: bigint;
}

/** The band around `referenceRate`; none without a reference rate, so no offer is left out for its price. */
export function priceBand(referenceRate: bigint | null, extremeSpreadBps: bigint): PriceBand | undefined {
  return referenceRate === null ? undefined : { referenceRate, extremeSpreadBps };
}

/** Whether a floor (fiat per USDC, 18 decimals) is beyond the band, either way. */
function outsideBand(conversionRate: bigint, band: PriceBand): boolean {
  return isExtremeSpread(spreadBpsOf(conversionRate, band.referenceRate), band.extremeSpreadBps);
}

export interface DepositOffer {
  depositId: string;
  depositor: string;
  payeeDetails: Hex;
  /** The deposit's floor for this method and currency: fiat per USDC, 18 decimals. */
  conversionRate: bigint;
  available: bigint;
  intentMin: bigint;
  intentMax: bigint;
  sellerAutomatedRelease: boolean;
  disputeProtection: boolean;
}

export function offerKey(paymentMethod: string, currency: string): string {
  return `${paymentMethod.toLowerCase()}:${currency.toLowerCase()}`;
}

export function checkOfferQuery(query: OfferQuery): void {
  if (query.usdcAmount <= 0n) throw new RangeError(`usdcAmount must be positive, not ${query.usdcAmount}`);
  if (query.limit !== undefined && !(Number.isSafeInteger(query.limit) && query.limit > 0)) {
    throw new RangeError(`limit must be a positive integer, not ${query.limit}`);
  }
}

/**
 * The document for an indexer's answer. A currency is kept only under a method that names a
 * payee: the indexer keeps a floor whose method was switched off (the escrow keeps it too,
 * and it comes back if the method does), but an intent there reverts until then.
 */
export function depositDocument(answer: GetDepositResponse, asOfSequence: number, updatedAt: number): LiquidityDepositDoc {
  const received = answer.deposit;
  if (!received) throw new Error('a GetDeposit answer without its DepositReceived');
  const methods = answer.paymentMethods.map((method) => ({
    paymentMethod: method.paymentMethod.toLowerCase(),
    payeeDetails: method.payeeDetails.toLowerCase(),
    currencies: answer.currencies
      .filter((currency) => currency.paymentMethod.toLowerCase() === method.paymentMethod.toLowerCase())
      .map((currency) => ({ currency: currency.currency.toLowerCase(), minConversionRate: currency.minConversionRate })),
  }));
  return {
    _id: received.depositId,
    depositor: received.depositor,
    token: received.token,
    available: answer.available,
    locked: answer.locked,
    intentMin: answer.intentAmountMin,
    intentMax: answer.intentAmountMax,
    closed: answer.closed,
    isPrivate: answer.isPrivate,
    sellerAutomatedRelease: answer.sellerAutomatedRelease,
    disputeProtection: answer.disputeProtectionEnabled,
    methods,
    rateManager: answer.rateManager === zeroAddress ? null : answer.rateManager.toLowerCase(),
    intentsSignaled: answer.intentsSignaled,
    intentsFulfilled: answer.intentsFulfilled,
    totalDeposited: answer.totalDeposited,
    totalTaken: answer.totalTaken,
    createdAt: Number(answer.createdAt),
    chainUpdatedAt: Number(answer.updatedAt),
    offers: methods.flatMap((method) => method.currencies.map((currency) => offerKey(method.paymentMethod, currency.currency))),
    asOfSequence,
    updatedAt,
  };
}

export function bookDeposit(doc: LiquidityDepositDoc): BookDeposit {
  return {
    depositId: doc._id,
    depositor: doc.depositor,
    token: doc.token,
    available: BigInt(doc.available),
    locked: BigInt(doc.locked),
    intentMin: BigInt(doc.intentMin),
    intentMax: BigInt(doc.intentMax),
    closed: doc.closed,
    isPrivate: doc.isPrivate,
    sellerAutomatedRelease: doc.sellerAutomatedRelease,
    disputeProtection: doc.disputeProtection,
    methods: doc.methods.map((method) => ({
      paymentMethod: method.paymentMethod as Hex,
      payeeDetails: method.payeeDetails as Hex,
      currencies: method.currencies.map((currency) => ({ currency: currency.currency as Hex, minConversionRate: BigInt(currency.minConversionRate) })),
    })),
    asOfSequence: doc.asOfSequence,
  };
}

/**
 * The deposits that can take this intent, cheapest for the buyer first. Private deposits are
 * left out because the gating service signs on them only for takers their maker listed, and
 * floors outside the query's band because the cheapest of those is a maker's mistake, not a
 * price (a maker's loss if the buyer takes it, the buyer's if it is far above).
 */
export function rankOffers(docs: readonly LiquidityDepositDoc[], query: OfferQuery): DepositOffer[] {
  checkOfferQuery(query);
  const wanted = offerKey(query.paymentMethod, query.currency);
  const excluded = new Set((query.excludedPayees ?? []).map((payee) => payee.toLowerCase()));
  const amount = query.usdcAmount;
  const offers: DepositOffer[] = [];
  for (const doc of docs) {
    if (doc.closed || doc.isPrivate) continue;
    for (const method of doc.methods) {
      const priced = method.currencies.find((currency) => offerKey(method.paymentMethod, currency.currency) === wanted);
      if (!priced || excluded.has(method.payeeDetails.toLowerCase())) continue;
      if (query.band && outsideBand(BigInt(priced.minConversionRate), query.band)) continue;
      const offer: DepositOffer = {
        depositId: doc._id,
        depositor: doc.depositor,
        payeeDetails: method.payeeDetails.toLowerCase() as Hex,
        conversionRate: BigInt(priced.minConversionRate),
        available: BigInt(doc.available),
        intentMin: BigInt(doc.intentMin),
        intentMax: BigInt(doc.intentMax),
        sellerAutomatedRelease: doc.sellerAutomatedRelease,
        disputeProtection: doc.disputeProtection,
      };
      if (offer.available >= amount && offer.intentMin <= amount && amount <= offer.intentMax) offers.push(offer);
    }
  }
  offers.sort(byBuyersPrice);
  return query.limit === undefined ? offers : offers.slice(0, query.limit);
}

/** The lowest floor first; among equals the deepest, which concurrent quotes are least likely to drain; then the id, so the order is stable. */
function byBuyersPrice(a: DepositOffer, b: DepositOffer): number {
  return compare(a.conversionRate, b.conversionRate) || compare(b.available, a.available) || compare(BigInt(a.depositId), BigInt(b.depositId));
}

/** How much one deposit can take for a method and currency now: an intent between `min` and `max`. */
export interface TakeableRange {
  depositId: string;
  payeeDetails: Hex;
  min: bigint;
  max: bigint;
}

/**
 * For each open, public deposit pricing the pair inside the band (when one is given) with
 * liquidity for its smallest intent, the amounts it can take: the offers rankOffers would quote.
 */
export function takeableRanges(docs: readonly LiquidityDepositDoc[], paymentMethod: string, currency: string, band?: PriceBand): TakeableRange[] {
  const wanted = offerKey(paymentMethod, currency);
  const ranges: TakeableRange[] = [];
  for (const doc of docs) {
    if (doc.closed || doc.isPrivate) continue;
    const available = BigInt(doc.available);
    const min = BigInt(doc.intentMin);
    const max = available < BigInt(doc.intentMax) ? available : BigInt(doc.intentMax);
    if (max < min) continue;
    for (const method of doc.methods) {
      const priced = method.currencies.find((candidate) => offerKey(method.paymentMethod, candidate.currency) === wanted);
      if (priced && !(band && outsideBand(BigInt(priced.minConversionRate), band))) {
        ranges.push({ depositId: doc._id, payeeDetails: method.payeeDetails.toLowerCase() as Hex, min, max });
      }
    }
  }
  return ranges;
}
