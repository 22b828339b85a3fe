/**
 * One orderbook row per deposit, payment platform and currency it prices: document 3's
 * entry fields, computed from the liquidity book's deposit documents in bigint. The
 * figures that rank and filter (the rate, what is takeable, spread and APR in basis
 * points) are kept beside the wire fields so a query never parses a string back.
 *
 * The rules, each written once in docs/orderbook.md:
 * - price is the deposit's floor, fiat per USDC; spread is its distance from the
 *   reference rate, in percent (positive: the taker pays above the market);
 * - fiat amounts are the USDC amounts at the deposit's rate, in the currency's 2 decimals,
 *   the smallest rounded up and the others down;
 * - successRateBps is fulfilled intents over signalled ones, 0 before the first intent;
 * - apr is the spread earned on the share of the capital that was taken, per year of the
 *   deposit's life: spread × totalTaken / totalDeposited × (365 days / age), null when
 *   there is no reference rate or the deposit is younger than a day;
 * - feeBps is the protocol's fee, and the net USDC a taker receives is the available
 *   amount less it.
 */
import { ceilDiv, formatFiat, formatTokenAmount } from '../money.js';
import type { LiquidityDepositDoc } from './market-records.js';
import type { MakerRecord } from '../maker/index.js';
import { makerOf } from './maker-lookup.js';
import { DAY_SECONDS, depositIdOf, isoSeconds, successRateBps, USDC_RATE_TO_CENTS } from './market-fields.js';
import { currencyOfHash, platformOfHash } from './market-names.js';

const BPS = 10_000n;
const DAY = BigInt(DAY_SECONDS);
const YEAR_SECONDS = 365n * DAY;

/** The seller side of automated release, as the attestation service knows the payee's credential. */
export interface SellerCredential {
  active: boolean;
  /** Unix seconds. */
  expiresAt: number;
}

export interface RowContext {
  /** The chain and token the orderbook reports its deposits under. */
  chainId: number;
  token: string;
  escrow: string;
  feeBps: number;
  /** Fiat per USD of each currency, 6 decimals, where the rate source prices it. */
  referenceRates: ReadonlyMap<string, bigint>;
  /** By `<platform>:<payeeDetails>`: the payees whose sellers uploaded a credential. */
  credentials: ReadonlyMap<string, SellerCredential>;
  /** Maker records by `<processorName>:<hashedOnchainId>` (actors/market/maker-records.ts). */
  makers: ReadonlyMap<string, MakerRecord>;
  /** Unix seconds. */
  now: number;
}

/** What a query ranks and filters by, beside the wire fields. */
export interface RowKeys {
  rate: bigint;
  available: bigint;
  intentMin: bigint;
  intentMax: bigint;
  /** What one intent can take now: the smaller of intentMax and available. */
  takeable: bigint;
  spreadBps: bigint | null;
  aprBps: bigint | null;
}

export interface OrderbookRow {
  chainId: number;
  depositId: string;
  depositIdOnContract: string;
  escrowAddress: string;
  depositor: string;
  token: string;
  paymentMethodHash: string;
  paymentPlatform: string;
  supportedMethodHashes: string[];
  payeeDetailsHash: string;
  currencyCode: string;
  currency: string;
  price: string;
  conversionRate: string;
  takerConversionRate: string;
  rateManagerId: string | null;
  availableTokenAmount: string;
  netTokenAmount: string;
  availableFiatAmount: string;
  intentAmountMin: string;
  intentAmountMax: string;
  minFiatSupported: string;
  maxFiatSupported: string;
  successRateBps: number;
  feeBps: number;
  apr: number | null;
  spread: number | null;
  sellerAutomatedReleaseAvailable: boolean;
  sellerAutomatedReleaseEnabled: boolean;
  isPrivate: boolean;
  updatedAt: string;
  /** The payee's maker record, where one was made (the list form's `maker`). */
  maker?: MakerRecord;
}

/** What a query filters and breaks ties by, beside the keys. */
export interface RowFacts {
  depositIdOnContract: string;
  paymentPlatform: string;
  currency: string;
  isPrivate: boolean;
  sellerAutomatedReleaseAvailable: boolean;
}

export interface RankedRow {
  keys: RowKeys;
  facts: RowFacts;
  /** The wire fields, made the first time a page shows the row: most rows of a snapshot are never shown. */
  readonly row: OrderbookRow;
}

class LazyRow implements RankedRow {
  #row: OrderbookRow | undefined;
  constructor(
    readonly keys: RowKeys,
    readonly facts: RowFacts,
    private readonly make: () => OrderbookRow,
  ) {}

  get row(): OrderbookRow {
    return (this.#row ??= this.make());
  }
}

/** Every row of the open deposits, in no order. */
export function orderbookRows(deposits: readonly LiquidityDepositDoc[], context: RowContext): RankedRow[] {
  const rows: RankedRow[] = [];
  for (const deposit of deposits) {
    if (deposit.closed) continue;
    const supportedMethodHashes = deposit.methods.map((method) => method.paymentMethod);
    for (const method of deposit.methods) {
      const platform = platformOfHash(method.paymentMethod);
      if (platform === null) continue;
      for (const priced of method.currencies) {
        const currency = currencyOfHash(priced.currency);
        if (currency === null) continue;
        rows.push(
          rowOf(
            deposit,
            {
              platform,
              paymentMethod: method.paymentMethod,
              payeeDetails: method.payeeDetails,
              currency,
              currencyCode: priced.currency,
              rate: BigInt(priced.minConversionRate),
              supportedMethodHashes,
            },
            context,
          ),
        );
      }
    }
  }
  return rows;
}

interface PricedPair {
  platform: string;
  paymentMethod: string;
  payeeDetails: string;
  currency: string;
  currencyCode: string;
  rate: bigint;
  supportedMethodHashes: string[];
}

function rowOf(deposit: LiquidityDepositDoc, pair: PricedPair, context: RowContext): RankedRow {
  const available = BigInt(deposit.available);
  const intentMin = BigInt(deposit.intentMin);
  const intentMax = BigInt(deposit.intentMax);
  const takeable = available < intentMax ? available : intentMax;
  const reference = context.referenceRates.get(pair.currency);
  const spreadBps = reference ? spreadBpsOf(pair.rate, reference) : null;
  const aprBps = spreadBps === null ? null : aprBpsOf(spreadBps, deposit, context.now);
  const credential = context.credentials.get(`${pair.platform}:${pair.payeeDetails}`);
  const enabled = deposit.sellerAutomatedRelease && credential?.active === true;
  const keys: RowKeys = { rate: pair.rate, available, intentMin, intentMax, takeable, spreadBps, aprBps };
  const facts: RowFacts = {
    depositIdOnContract: deposit._id,
    paymentPlatform: pair.platform,
    currency: pair.currency,
    isPrivate: deposit.isPrivate,
    sellerAutomatedReleaseAvailable: enabled && credential!.expiresAt > context.now,
  };
  return new LazyRow(keys, facts, () => {
    const maker = makerOf(context.makers, pair.platform, pair.payeeDetails);
    return {
      chainId: context.chainId,
      depositId: depositIdOf(context.chainId, context.escrow, deposit._id),
      depositIdOnContract: deposit._id,
      escrowAddress: context.escrow,
      depositor: deposit.depositor,
      token: context.token,
      paymentMethodHash: pair.paymentMethod,
      paymentPlatform: pair.platform,
      supportedMethodHashes: pair.supportedMethodHashes,
      payeeDetailsHash: pair.payeeDetails,
      currencyCode: pair.currencyCode,
      currency: pair.currency,
      price: rateText(pair.rate),
      conversionRate: pair.rate.toString(),
      // A rate manager moves the floor on chain, where the book reads it, so the taker's rate is the floor.
      takerConversionRate: pair.rate.toString(),
      rateManagerId: deposit.rateManager,
      availableTokenAmount: available.toString(),
      netTokenAmount: ((available * (BPS - BigInt(context.feeBps))) / BPS).toString(),
      availableFiatAmount: formatFiat((available * pair.rate) / USDC_RATE_TO_CENTS),
      intentAmountMin: intentMin.toString(),
      intentAmountMax: intentMax.toString(),
      minFiatSupported: formatFiat(ceilDiv(intentMin * pair.rate, USDC_RATE_TO_CENTS)),
      maxFiatSupported: formatFiat((takeable * pair.rate) / USDC_RATE_TO_CENTS),
      successRateBps: successRateBps(deposit),
      feeBps: context.feeBps,
      apr: aprBps === null ? null : percent(aprBps),
      spread: spreadBps === null ? null : percent(spreadBps),
      sellerAutomatedReleaseAvailable: facts.sellerAutomatedReleaseAvailable,
      sellerAutomatedReleaseEnabled: enabled,
      isPrivate: deposit.isPrivate,
      updatedAt: isoSeconds(deposit.chainUpdatedAt),
      ...(maker ? { maker } : {}),
    };
  });
}

/** (rate / reference − 1) in basis points, toward zero; the reference is fiat per USD with 6 decimals. */
export function spreadBpsOf(rate: bigint, referencePerUsd: bigint): bigint {
  const reference = referencePerUsd * 10n ** 12n;
  return ((rate - reference) * BPS) / reference;
}

/** The spread earned on the taken share of the capital, per year of the deposit's life; null under a day old. */
export function aprBpsOf(spreadBps: bigint, deposit: Pick<LiquidityDepositDoc, 'totalDeposited' | 'totalTaken' | 'createdAt'>, now: number): bigint | null {
  const age = BigInt(Math.max(0, now - deposit.createdAt));
  const deposited = BigInt(deposit.totalDeposited);
  if (age < DAY || deposited === 0n) return null;
  return (spreadBps * BigInt(deposit.totalTaken) * YEAR_SECONDS) / (deposited * age);
}

/** Basis points as a percent with two decimals, for display: never an amount. */
function percent(bps: bigint): number {
  return Number(bps) / 100;
}

/** An 18-decimal rate as its shortest decimal, with at least two decimals (`1.02`, `0.925`). */
export function rateText(rate: bigint): string {
  const [whole, fraction = ''] = formatTokenAmount(rate, 18).split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}
