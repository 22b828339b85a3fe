/**
 * A maker's detail beyond its leaderboard row (document 3's platform breakdowns, currency
 * breakdowns and recent profit snapshots), from the intent ledger's records of its intents, in
 * bigint. Lifetime figures: the detail takes no window (docs/leaderboard.md).
 */
import type { IntentRecordDoc } from './market-records.js';
import { compare } from '../money.js';
import { fillOf, type Fill } from './leaderboard-figures.js';
import { DAY_SECONDS, USDC_RATE_TO_CENTS, utcDate } from './market-fields.js';
import { currencyOfHash, platformOfHash } from './market-names.js';

/** How many days of profit snapshots the detail shows, today's included. */
export const PROFIT_SNAPSHOT_DAYS = 30;

/** What a maker's intents on one platform, or in one currency, came to. */
export interface IntentTally {
  intentsSignaled: number;
  intentsFulfilled: number;
  intentsPruned: number;
  totalAmountTaken: bigint;
  realizedProfitUsd: bigint;
  /** What takers paid for the released USDC at their intents' rates, in fiat cents; meaningful per currency only. */
  fiatCents: bigint;
}

export interface PlatformBreakdown extends IntentTally {
  paymentMethodHash: string;
  /** The platform id behind the hash; null for a method no platform we verify hashes to. */
  paymentPlatform: string | null;
}

export interface CurrencyBreakdown extends IntentTally {
  currencyCode: string;
  /** The ISO code behind the hash; null for none. */
  currency: string | null;
}

/** One UTC day of a maker's fulfilments. */
export interface ProfitSnapshot {
  /** YYYY-MM-DD. */
  date: string;
  fulfilments: number;
  totalAmountTaken: bigint;
  realizedProfitUsd: bigint;
  /** Lifetime realised profit at the end of that day. */
  cumulativeRealizedProfitUsd: bigint;
}

/** Per platform and per currency, the most volume first, then by hash. */
export function breakdownsOf(records: readonly IntentRecordDoc[]): { platforms: PlatformBreakdown[]; currencies: CurrencyBreakdown[] } {
  const platforms = new Map<string, Counting>();
  const currencies = new Map<string, Counting>();
  for (const record of records) {
    count(tallyIn(platforms, record.paymentMethod), record);
    count(tallyIn(currencies, record.fiatCurrency), record);
  }
  return {
    platforms: ordered(platforms).map(([hash, tally]) => ({ paymentMethodHash: hash, paymentPlatform: platformOfHash(hash), ...tally })),
    currencies: ordered(currencies).map(([hash, tally]) => ({ currencyCode: hash, currency: currencyOfHash(hash), ...tally })),
  };
}

/** A tally being counted: fiat as released × rate, rounded to cents once, at the end. */
type Counting = Omit<IntentTally, 'fiatCents'> & { fiatScaled: bigint };

function tallyIn(tallies: Map<string, Counting>, key: string): Counting {
  let tally = tallies.get(key);
  if (!tally)
    tallies.set(key, (tally = { intentsSignaled: 0, intentsFulfilled: 0, intentsPruned: 0, totalAmountTaken: 0n, realizedProfitUsd: 0n, fiatScaled: 0n }));
  return tally;
}

/** Every intent was signalled; a fulfilled one adds its volume, profit and fiat. */
function count(tally: Counting, record: IntentRecordDoc): void {
  tally.intentsSignaled += 1;
  if (record.status === 'PRUNED') tally.intentsPruned += 1;
  const fill = fillOf(record);
  if (!fill) return;
  tally.intentsFulfilled += 1;
  tally.totalAmountTaken += fill.released;
  tally.realizedProfitUsd += fill.profit;
  tally.fiatScaled += fill.released * BigInt(record.conversionRate);
}

/** Fiat rounded down to the cent: a figure the released USDC surely covers. */
function ordered(tallies: Map<string, Counting>): [string, IntentTally][] {
  return [...tallies]
    .map(([key, { fiatScaled, ...tally }]): [string, IntentTally] => [key, { ...tally, fiatCents: fiatScaled / USDC_RATE_TO_CENTS }])
    .sort(([a, x], [b, y]) => compare(y.totalAmountTaken, x.totalAmountTaken) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The last PROFIT_SNAPSHOT_DAYS UTC days up to the one `now` (Unix seconds) falls in, oldest
 * first, every day shown whether anything was fulfilled on it or not.
 */
export function profitSnapshots(fills: readonly Fill[], now: number, days = PROFIT_SNAPSHOT_DAYS): ProfitSnapshot[] {
  const today = Math.floor(now / DAY_SECONDS);
  const first = today - days + 1;
  const snapshots: ProfitSnapshot[] = [];
  for (let day = first; day <= today; day++) {
    snapshots.push({ date: utcDate(day), fulfilments: 0, totalAmountTaken: 0n, realizedProfitUsd: 0n, cumulativeRealizedProfitUsd: 0n });
  }
  let before = 0n;
  for (const fill of fills) {
    const day = Math.floor(fill.fulfilledAt / DAY_SECONDS);
    if (day < first) before += fill.profit;
    const snapshot = snapshots[day - first];
    if (!snapshot) continue;
    snapshot.fulfilments += 1;
    snapshot.totalAmountTaken += fill.released;
    snapshot.realizedProfitUsd += fill.profit;
  }
  let cumulative = before;
  for (const snapshot of snapshots) snapshot.cumulativeRealizedProfitUsd = cumulative += snapshot.realizedProfitUsd;
  return snapshots;
}
