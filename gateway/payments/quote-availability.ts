/**
 * POST /api/v1/merchants/me/quotes/availability: before creating an order, can a
 * customer pay this amount now? An offer is one maker's deposit on one of the rails
 * asked (a Zelle rail counts each bank), in the currency asked, that can take the
 * intent the amount needs (fees included, as the merchant's fee payer prices it),
 * whose payee the directory knows and whose floor a checkout would quote (within
 * `extremeSpreadBps` of the reference rate, gateway/checkout/quotes.ts). When none
 * can, the nearest amounts some can take are suggested, in the unit asked. A sandbox
 * merchant is quoted at the reference rate, as its checkout is.
 */
import { keccak256, toBytes } from 'viem';
import type { z } from 'zod';
import { priceBand, type LiquidityBook, type PayeeDirectory, type TakeableRange } from '../../actors/market/index.js';
import { RateUnavailableError, type RateSource } from '../../actors/adapters/rates/rate-source.js';
import { fiatToUsdc, formatFiat, formatUsdc, parseFiat, parseUsdc, usdcToFiat } from '../../machines/money.js';
import { resolveDestination } from '../../machines/order/destination.js';
import { buyerShareBps, creditOf, priceIntent, type FeeSchedule } from '../../machines/payment/index.js';
import { FIAT_RAILS, RAIL_CURRENCIES, railCurrency, ZELLE_BANKS, type FiatRail } from '../../machines/rails.js';
import { ApiError, fieldError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import type { PaymentSettings } from '../checkout/quotes.js';
import { allowed, orderAccount } from '../orders/create-order.js';
import type { quoteAvailabilityBody } from './payment-schemas.js';
import { positiveMoneyField } from '../validation.js';

type AvailabilityRequest = z.infer<typeof quoteAvailabilityBody>;

export interface AvailabilityDependencies {
  rates: RateSource;
  liquidity: LiquidityBook | null;
  payees: PayeeDirectory | null;
  fees: FeeSchedule;
  /** A floor further than this from the reference rate, either way, is not quoted, so it is not counted. */
  extremeSpreadBps: bigint;
  /** Whether live orders may be bridged: the node's bridge wallet (docs/bridges.md). */
  payments?: Pick<PaymentSettings, 'bridgeWallet'>;
}

export async function quoteAvailability(deps: AvailabilityDependencies, account: MerchantAccount, request: AvailabilityRequest) {
  const config = account.profile.merchantConfig;
  allowed(resolveDestination(request, orderAccount(account, Boolean(deps.payments?.bridgeWallet))));
  const rails = (request.enabledRails ?? config.enabledRails).filter((rail): rail is FiatRail => (FIAT_RAILS as readonly string[]).includes(rail));
  const preferred = request.fiatCurrency ?? config.defaultPaymentCurrency;
  const shareBps = buyerShareBps(config.feePayer, 0);

  // The amount in USDC owed, and the way back to the unit asked for suggestions.
  let owed: bigint;
  let shown: (usdc: bigint) => string;
  if (request.quoteMode === 'EXACT_FIAT') {
    if (!preferred) throw fieldError('fiatCurrency', 'is required for EXACT_FIAT when the merchant has no defaultPaymentCurrency');
    const rate = await deps.rates.currencyPerUsd(preferred);
    if (rate === null) throw new ApiError(422, `No exchange rate prices ${preferred} now`, 'CURRENCY_NOT_SUPPORTED');
    owed = fiatToUsdc(
      positiveMoneyField('amount', () => parseFiat(request.amount)),
      rate,
    );
    shown = (usdc) => formatFiat(usdcToFiat(usdc, rate));
  } else {
    owed = positiveMoneyField('amount', () => parseUsdc(request.amount));
    shown = formatUsdc;
  }
  const released = priceIntent(owed, deps.fees, shareBps).releasedUsdc;

  const ranges: TakeableRange[] = [];
  for (const rail of rails) {
    if (preferred && !RAIL_CURRENCIES[rail].includes(preferred)) continue;
    const currency = railCurrency(rail, preferred);
    for (const platform of rail === 'zelle' ? ZELLE_BANKS : [rail]) ranges.push(...(await knownRanges(deps, account, platform, currency)));
  }
  const quoteCount = ranges.filter((range) => range.min <= released && released <= range.max).length;
  const suggestions = quoteCount > 0 ? [] : nearby(ranges, released, request.nearbyQuotesCount);
  return {
    available: quoteCount > 0,
    quoteCount,
    nearbySuggestions: suggestions.map((point) => ({
      amount: shown(creditOf(point, deps.fees, shareBps)),
      quoteCount: ranges.filter((range) => range.min <= point && point <= range.max).length,
    })),
  };
}

/** The ranges of the pair whose payee is known; in the sandbox, one unbounded stand-in when a rate prices the currency. */
async function knownRanges(deps: AvailabilityDependencies, account: MerchantAccount, platform: string, currency: string): Promise<TakeableRange[]> {
  if (account.environment === 'SANDBOX') {
    return (await deps.rates.currencyPerUsd(currency)) === null
      ? []
      : [{ depositId: 'sandbox', payeeDetails: keccak256(toBytes(platform)), min: 1n, max: 2n ** 255n }];
  }
  if (!deps.liquidity || !deps.payees) return [];
  const band = priceBand(await referenceRateOrNone(deps.rates, currency), deps.extremeSpreadBps);
  const known: TakeableRange[] = [];
  for (const range of await deps.liquidity.ranges(keccak256(toBytes(platform)), keccak256(toBytes(currency)), band)) {
    if ((await deps.payees.lookup(platform, range.payeeDetails)) !== null) known.push(range);
  }
  return known;
}

/**
 * A live availability answers from the book alone, as it did before quotes left extreme
 * floors out: while the rates cannot be read it counts every deposit rather than refuse.
 */
async function referenceRateOrNone(rates: AvailabilityDependencies['rates'], currency: string): Promise<bigint | null> {
  try {
    return await rates.currencyPerUsd(currency);
  } catch (error) {
    if (error instanceof RateUnavailableError) return null;
    throw error;
  }
}

/** The bounds of the ranges nearest `amount`, closest first, each once. */
export function nearby(ranges: readonly TakeableRange[], amount: bigint, count: number): bigint[] {
  const points = new Set<bigint>();
  for (const range of ranges) points.add(amount < range.min ? range.min : range.max);
  const distance = (point: bigint) => (point > amount ? point - amount : amount - point);
  return [...points].sort((a, b) => (distance(a) < distance(b) ? -1 : distance(a) > distance(b) ? 1 : a < b ? -1 : 1)).slice(0, count);
}
