/**
 * The amount an order is created with, as pure rules: a USDC amount as given, a fiat
 * price converted at a rate the caller read, or an open amount whose largest offer must
 * fit. Every form is held to the node's largest order in USDC, a fiat one at today's rate.
 * Each rule answers the order's amount fields or a refusal, as the create rules do.
 */
import { fiatToUsdc, formatFiat, formatRate, formatUsdc, parseFiat } from '../money.js';
import type { RuleResult } from './create-rules.js';
import type { OpenAmountConfig } from './open-amount.js';
import type { OrderPricing } from './order-types.js';

export interface OrderAmount {
  amountMode: 'FIXED' | 'OPEN';
  requestedUsdcAmount: bigint | null;
  requestedFiat: { amount: string; currency: string } | null;
  pricing: OrderPricing | null;
  openAmount: OpenAmountConfig | null;
}

export function fixedUsdcAmount(usdc: bigint, maxUsdc: bigint): RuleResult<{ amount: OrderAmount }> {
  if (usdc > maxUsdc) return { ok: false, code: 'FIELD_REFUSED', field: 'requestedUsdcAmount', message: `must be at most ${formatUsdc(maxUsdc)} USDC` };
  return { ok: true, amount: { amountMode: 'FIXED', requestedUsdcAmount: usdc, requestedFiat: null, pricing: null, openAmount: null } };
}

/** The currency a fiat price is in: as requested, else the merchant's default, upper-cased. */
export function pricingCurrency(requested: string | undefined, defaultCurrency: string | null): RuleResult<{ currency: string }> {
  const currency = (requested ?? defaultCurrency)?.toUpperCase();
  if (!currency) {
    return {
      ok: false,
      code: 'FIELD_REFUSED',
      field: 'requestedFiatCurrency',
      message: 'is required: this merchant has no defaultPaymentCurrency to price the order in',
    };
  }
  return { ok: true, currency };
}

export interface FiatPrice {
  cents: bigint;
  currency: string;
  /** Units of `currency` per USD, six decimals; null when no rate is available. */
  rate: bigint | null;
  maxUsdc: bigint;
  pricedAt: string;
}

/** A fixed order priced in fiat: its USDC amount at the rate, rounded up so the merchant is never short. */
export function fiatPricedAmount({ cents, currency, rate, maxUsdc, pricedAt }: FiatPrice): RuleResult<{ amount: OrderAmount }> {
  if (rate === null) return { ok: false, code: 'CURRENCY_NOT_SUPPORTED', message: `No exchange rate is available for ${currency}` };
  const usdc = fiatToUsdc(cents, rate);
  if (usdc > maxUsdc) {
    const message = `is ${formatUsdc(usdc)} USDC at today’s rate; an order may be at most ${formatUsdc(maxUsdc)} USDC`;
    return { ok: false, code: 'FIELD_REFUSED', field: 'requestedFiatAmount', message };
  }
  const pricing = { currencyPerUsdRate: formatRate(rate), currency, pricedAt };
  const requestedFiat = { amount: formatFiat(cents), currency };
  return { ok: true, amount: { amountMode: 'FIXED', requestedUsdcAmount: usdc, requestedFiat, pricing, openAmount: null } };
}

/** An open amount (normalised) whose largest offer, at the rate, fits in the largest order. */
export function openAmountWithin(config: OpenAmountConfig, rate: bigint | null, maxUsdc: bigint): RuleResult<{ amount: OrderAmount }> {
  if (rate === null) return { ok: false, code: 'OPEN_AMOUNT_INVALID', message: `No exchange rate is available for ${config.currency}` };
  // Presets are ascending and inside the range, so the largest amount a customer is offered is the maximum or the last preset.
  const largest = config.maxAmount ?? config.presets.at(-1);
  const largestUsdc = largest === undefined ? 0n : fiatToUsdc(parseFiat(largest), rate);
  if (largestUsdc > maxUsdc) {
    const message = `openAmount allows ${largest} ${config.currency}, ${formatUsdc(largestUsdc)} USDC at today’s rate; an order may be at most ${formatUsdc(maxUsdc)} USDC`;
    return { ok: false, code: 'OPEN_AMOUNT_INVALID', message };
  }
  return { ok: true, amount: { amountMode: 'OPEN', requestedUsdcAmount: null, requestedFiat: null, pricing: null, openAmount: config } };
}
