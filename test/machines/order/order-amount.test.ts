/** The amount rules of a create (machines/order/order-amount.ts): the limit, the fiat conversion at a given rate, an open amount's largest offer. */
import test from 'ava';
import { fiatPricedAmount, fixedUsdcAmount, openAmountWithin, pricingCurrency, type OpenAmountConfig } from '../../../machines/order/index.js';

const MAX = 1_000_000_000n; // 1,000 USDC
const EUR_RATE = 920_000n; // 0.92 EUR per USD
const AT = '2026-11-23T12:00:00.000Z';

test('fixedUsdcAmount: up to the largest order, refused on the field above it', (t) => {
  t.deepEqual(fixedUsdcAmount(MAX, MAX), {
    ok: true,
    amount: { amountMode: 'FIXED', requestedUsdcAmount: MAX, requestedFiat: null, pricing: null, openAmount: null },
  });
  t.deepEqual(fixedUsdcAmount(MAX + 1n, MAX), { ok: false, code: 'FIELD_REFUSED', field: 'requestedUsdcAmount', message: 'must be at most 1000 USDC' });
});

test('pricingCurrency: the requested currency, else the default, upper-cased; neither is a field refusal', (t) => {
  t.deepEqual(pricingCurrency('eur', 'USD'), { ok: true, currency: 'EUR' });
  t.deepEqual(pricingCurrency(undefined, 'gbp'), { ok: true, currency: 'GBP' });
  const refused = pricingCurrency(undefined, null);
  t.like(refused, { ok: false, code: 'FIELD_REFUSED', field: 'requestedFiatCurrency' });
});

test('fiatPricedAmount: converted at the rate rounding up, with the rate and time it was priced at', (t) => {
  const priced = fiatPricedAmount({ cents: 2300n, currency: 'EUR', rate: EUR_RATE, maxUsdc: MAX, pricedAt: AT });
  t.deepEqual(priced, {
    ok: true,
    amount: {
      amountMode: 'FIXED',
      requestedUsdcAmount: 25_000_000n,
      requestedFiat: { amount: '23.00', currency: 'EUR' },
      pricing: { currencyPerUsdRate: '0.920000', currency: 'EUR', pricedAt: AT },
      openAmount: null,
    },
  });
  const rounded = fiatPricedAmount({ cents: 100n, currency: 'EUR', rate: 3_000_000n, maxUsdc: MAX, pricedAt: AT });
  t.is(rounded.ok && rounded.amount.requestedUsdcAmount, 333_334n, 'a third of a dollar rounds up to the merchant');
});

test('fiatPricedAmount: no rate is CURRENCY_NOT_SUPPORTED; over the largest order at the rate refuses the field', (t) => {
  t.deepEqual(fiatPricedAmount({ cents: 100n, currency: 'XYZ', rate: null, maxUsdc: MAX, pricedAt: AT }), {
    ok: false,
    code: 'CURRENCY_NOT_SUPPORTED',
    message: 'No exchange rate is available for XYZ',
  });
  // 920.01 EUR is 1000.010870 USDC at 0.92: just over.
  t.deepEqual(fiatPricedAmount({ cents: 92_001n, currency: 'EUR', rate: EUR_RATE, maxUsdc: MAX, pricedAt: AT }), {
    ok: false,
    code: 'FIELD_REFUSED',
    field: 'requestedFiatAmount',
    message: 'is 1000.01087 USDC at today’s rate; an order may be at most 1000 USDC',
  });
  t.true(fiatPricedAmount({ cents: 92_000n, currency: 'EUR', rate: EUR_RATE, maxUsdc: MAX, pricedAt: AT }).ok);
});

test('openAmountWithin: the maximum, else the last preset, must fit at the rate; no bound fits; no rate is refused', (t) => {
  const config = (maxAmount: string | null, presets: string[] = []): OpenAmountConfig => ({ currency: 'EUR', minAmount: null, maxAmount, presets });
  t.deepEqual(openAmountWithin(config(null), EUR_RATE, MAX), {
    ok: true,
    amount: { amountMode: 'OPEN', requestedUsdcAmount: null, requestedFiat: null, pricing: null, openAmount: config(null) },
  });
  t.true(openAmountWithin(config('920.00'), EUR_RATE, MAX).ok);
  t.deepEqual(openAmountWithin(config(null, ['10.00', '920.01']), EUR_RATE, MAX), {
    ok: false,
    code: 'OPEN_AMOUNT_INVALID',
    message: 'openAmount allows 920.01 EUR, 1000.01087 USDC at today’s rate; an order may be at most 1000 USDC',
  });
  t.deepEqual(openAmountWithin(config('5.00'), null, MAX), { ok: false, code: 'OPEN_AMOUNT_INVALID', message: 'No exchange rate is available for EUR' });
});
