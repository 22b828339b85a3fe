/** The arithmetic of a quote (machines/payment/quotes.ts): sandbox stand-ins, a crypto attempt's rate, the spread. */
import test from 'ava';
import { zeroAddress } from 'viem';
import { CRYPTO_WINDOW_MS } from '../../../machines/rails.js';
import {
  cryptoCandidate,
  priceIntent,
  sandboxConversion,
  sandboxFiatQuote,
  sandboxRecipient,
  spreadBps,
  type QuotedConversion,
} from '../../../machines/payment/index.js';

const FEES = { protocolFeeBps: 0, platformFeeBps: 100 };
const AT = '2026-11-23T12:00:00.000Z';

test('sandboxRecipient: opaque, one per platform, the same every time', (t) => {
  t.regex(sandboxRecipient('venmo'), /^sbx_[0-9a-f]{16}$/);
  t.is(sandboxRecipient('venmo'), sandboxRecipient('venmo'));
  t.not(sandboxRecipient('venmo'), sandboxRecipient('zelle-chase'));
});

test('sandboxFiatQuote: the reference rate (6 decimals) written as a deposit rate (18), on the stand-in recipient', (t) => {
  const { quote, payTo } = sandboxFiatQuote('revolut', 'EUR', 920_000n);
  t.is(payTo, sandboxRecipient('revolut'));
  t.like(quote, { processorName: 'revolut', depositId: 'sandbox', escrowAddress: zeroAddress, fiatCurrencyCode: 'EUR', sellerAutomatedRelease: false });
  t.is(quote.conversionRate, 920_000_000_000_000_000n);
  t.is(spreadBps(quote.conversionRate, 920_000n), 0n, 'the sandbox quotes at the reference');
});

test('cryptoCandidate: the token paid per USDC delivered at 18 decimals, whatever decimals the token has', (t) => {
  const price = priceIntent(25_000_000n, FEES, 0);
  const sandbox = cryptoCandidate({
    rail: 'base-usdc',
    conversion: sandboxConversion('base-usdc', 8453, 'USDC', price.releasedUsdc),
    price,
    fees: FEES,
    feeRecipient: '0x2222222222222222222222222222222222222222',
    sandbox: true,
    quotedAt: AT,
    recipientRating: 5,
  });
  t.is(sandbox.quote.conversionRate, 10n ** 18n, 'one to one');
  t.like(sandbox, { currency: 'USDC', payTo: sandboxRecipient('base-usdc'), feeRecipient: null, windowMs: CRYPTO_WINDOW_MS, referenceRate: 1_000_000n });
  t.is(sandbox.quote.escrowAddress, zeroAddress);

  // 18-decimal ETH: 0.01 ETH for the USDC released.
  const eth: QuotedConversion = {
    requestId: 'req_1',
    depositAddress: '0x3333333333333333333333333333333333333333',
    originChainId: 1,
    originToken: 'ETH',
    originTokenAddress: zeroAddress,
    originDecimals: 18,
    originAmount: 10n ** 16n,
  };
  const live = cryptoCandidate({ rail: 'ethereum', conversion: eth, price, fees: FEES, feeRecipient: null, sandbox: false, quotedAt: AT, recipientRating: 5 });
  t.is(live.quote.conversionRate, (10n ** 16n * 10n ** 18n * 10n ** 6n) / (10n ** 18n * price.releasedUsdc));
  t.is(live.quote.escrowAddress as string, eth.depositAddress);
  t.is(live.referenceRate, null, 'no reference prices ETH against the dollar');
});

test('spreadBps: above the reference is positive, under it negative, in basis points of the reference', (t) => {
  const reference = 1_000_000n;
  t.is(spreadBps(1_020_000_000_000_000_000n, reference), 200n);
  t.is(spreadBps(970_000_000_000_000_000n, reference), -300n);
});
