/**
 * An open-amount order over HTTP (POST /api/v1/checkout/orders/{orderId}/amount): the
 * customer types the amount in the open amount's currency, inside its bounds; it becomes
 * the order's USDC amount at the reference rate (ORDER_AMOUNT_SET), conditionally on
 * amountVersion, and it is locked while an attempt is open (PAYMENT_IN_PROGRESS), once the
 * customer said they sent the money (PAYMENT_MAY_SETTLE) and once value settled (PAID).
 * docs/payments.md, Amount lock.
 */
import test from 'ava';
import { fiatToUsdc, formatUsdc, parseFiat } from '../../machines/money.js';
import { startTestGateway } from '../support/gateway.js';
import { advance, expectedQuote, hostedRead, HOUR_MS, isoNow, placeOrder, recordEvents, startPayment } from '../support/checkout.js';
import { referenceRate } from '../support/checkout.js';

const OPEN = { openAmount: { currency: 'EUR', minAmount: '5', maxAmount: '100', presets: ['20', '10'] } };

async function openOrder(t: { teardown(fn: () => Promise<void>): void }, body: Record<string, unknown> = OPEN) {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  // A new merchant has dynamic orders on, which an open amount needs (an order may still turn them off).
  const { sandboxKey } = await gateway.createMerchant();
  const order = await placeOrder(gateway, sandboxKey, body);
  return { gateway, sandboxKey, order };
}

/** The USDC an amount typed in EUR becomes at the reference rate, as document 1 writes USDC. */
const eurToUsdc = (amount: string) => formatUsdc(fiatToUsdc(parseFiat(amount), referenceRate('EUR')));

test('an open amount is set before paying, inside its bounds, with two decimals at most, in its own currency', async (t) => {
  const { gateway, sandboxKey, order } = await openOrder(t);
  const recorder = await recordEvents(gateway);
  const before = await hostedRead(gateway, order.id);
  t.like(before.order, { amountMode: 'OPEN', requestedUsdcAmount: null, remainingUsdcAmount: null, amountVersion: 0, amountLock: null });
  t.like(before.order.openAmount, {
    currency: 'EUR',
    minAmount: '5.00',
    maxAmount: '100.00',
    presets: ['10.00', '20.00'],
    effectiveMin: '5.00',
    effectiveMax: '100.00',
    savedInput: null,
  });

  for (const [method, path, body] of [
    ['POST', '/payments', { rail: 'revolut' }],
    ['GET', '/quotes', undefined],
  ] as const) {
    const refused = await order.customer(method, path, body);
    t.is(refused.status, 422, path);
    t.is(refused.body.errorCode, 'AMOUNT_REQUIRED', path);
  }

  for (const amount of ['4.99', '100.01']) {
    const out = await order.customer('POST', '/amount', { amount });
    t.is(out.status, 422, amount);
    t.is(out.body.errorCode, 'AMOUNT_OUT_OF_RANGE');
    t.deepEqual(out.body.responseObject, { minAmount: '5.00', maxAmount: '100.00' });
  }
  const precise = await order.customer('POST', '/amount', { amount: '1.234' });
  t.is(precise.status, 400);
  t.deepEqual(Object.keys(precise.body.responseObject.fieldErrors), ['amount']);
  t.is((await order.customer('POST', '/amount', { amount: '-5' })).status, 400);
  const otherCurrency = await order.customer('POST', '/amount', { amount: '10', currency: 'USD' });
  t.is(otherCurrency.status, 400);
  t.deepEqual(Object.keys(otherCurrency.body.responseObject.fieldErrors), ['currency']);

  // Without a maximum, the node's order limit bounds it: 100,000 EUR is over 100,000 USDC at 0.92.
  const unbounded = await placeOrder(gateway, sandboxKey, { openAmount: { currency: 'EUR' } });
  const tooMuch = await unbounded.customer('POST', '/amount', { amount: '100000' });
  t.is(tooMuch.status, 422);
  t.is(tooMuch.body.errorCode, 'AMOUNT_OUT_OF_RANGE');
  t.is(tooMuch.body.responseObject, null);
  const tooLittle = await unbounded.customer('POST', '/amount', { amount: '0' });
  t.deepEqual(tooLittle.body.responseObject, { minAmount: '0.01', maxAmount: null });

  // Nothing was set by any of it.
  t.like((await hostedRead(gateway, order.id)).order, { requestedUsdcAmount: null, amountVersion: 0 });
  t.deepEqual(
    (await recorder.of(order.id)).map((event) => event.type),
    ['ORDER_CREATED'],
  );
  t.deepEqual(
    (await recorder.of(unbounded.id)).map((event) => event.type),
    ['ORDER_CREATED'],
  );
});

test('a set amount answers the hosted order, fires ORDER_AMOUNT_SET with amountChange, and is conditional on amountVersion', async (t) => {
  const { gateway, order } = await openOrder(t);
  const recorder = await recordEvents(gateway);

  const set = await order.customer('POST', '/amount', { amount: '10', currency: 'EUR', amountVersion: 0 });
  t.is(set.status, 200);
  const first = eurToUsdc('10');
  t.like(set.body.responseObject.order, {
    id: order.id,
    status: 'CREATED',
    requestedUsdcAmount: first,
    remainingUsdcAmount: first,
    amountVersion: 1,
    amountLock: null,
  });
  t.deepEqual(set.body.responseObject.order.openAmount.savedInput, { amount: '10.00', currency: 'EUR' });
  t.is(set.body.responseObject.currentPayment, null);
  t.deepEqual(await hostedRead(gateway, order.id), set.body.responseObject);

  await advance(gateway, 30_000);
  const second = eurToUsdc('20.5');
  const changed = await order.customer('POST', '/amount', { amount: '20.5', amountVersion: 1 });
  t.is(changed.status, 200);
  t.like(changed.body.responseObject.order, { requestedUsdcAmount: second, amountVersion: 2, updatedAt: isoNow(gateway) });

  const stale = await order.customer('POST', '/amount', { amount: '30', amountVersion: 1 });
  t.is(stale.status, 409);
  t.is(stale.body.errorCode, 'AMOUNT_CONFLICT');
  t.deepEqual(stale.body.responseObject, { amountVersion: 2 });
  t.like((await hostedRead(gateway, order.id)).order, { requestedUsdcAmount: second, amountVersion: 2 });

  const [created, ...events] = await recorder.of(order.id);
  t.is(created!.type, 'ORDER_CREATED');
  t.deepEqual(
    events.map((event) => event.type),
    ['ORDER_AMOUNT_SET', 'ORDER_AMOUNT_SET'],
  );
  t.deepEqual(events[0]!.data.amountChange, { previousAmountUsdc: null, newAmountUsdc: first, fiat: { amount: '10.00', currency: 'EUR' }, amountVersion: 1 });
  t.deepEqual(events[1]!.data.amountChange, { previousAmountUsdc: first, newAmountUsdc: second, fiat: { amount: '20.50', currency: 'EUR' }, amountVersion: 2 });
  t.like(events[1]!.data.order, { id: order.id, amountMode: 'OPEN', requestedUsdcAmount: second, amountVersion: 2 });

  // The order now asks in its own currency, and owes the amount set.
  const quotes = (await order.customer('GET', '/quotes?rail=revolut')).body.responseObject;
  t.is(quotes.fiatCurrency, 'EUR');
  t.like(quotes.platforms[0], {
    currency: 'EUR',
    displayAmount: expectedQuote(fiatToUsdc(2050n, referenceRate('EUR')), 'EUR', gateway.node.payments.fees).displayAmount,
  });
});

test('the amount locks while an attempt is open, further once the customer says they sent the money, and frees when it expires', async (t) => {
  const { gateway, order } = await openOrder(t);
  await order.customer('POST', '/amount', { amount: '10' });
  const payment = await startPayment(order, { rail: 'revolut' });
  t.like(payment, { currency: 'EUR', quote: { signalIntent: { amount: fiatToUsdc(1000n, referenceRate('EUR')).toString() } } });

  const inProgress = await order.customer('POST', '/amount', { amount: '12' });
  t.is(inProgress.status, 409);
  t.is(inProgress.body.errorCode, 'AMOUNT_LOCKED');
  t.deepEqual(inProgress.body.responseObject, { amountLock: 'PAYMENT_IN_PROGRESS' });
  let hosted = await hostedRead(gateway, order.id);
  t.is(hosted.order.amountLock, 'PAYMENT_IN_PROGRESS');
  t.like(hosted.order.openAmount, { effectiveMin: null, effectiveMax: null });

  const sent = await order.customer('POST', `/payments/${payment.id}/sent`);
  t.is(sent.status, 200);
  t.is(sent.body.responseObject.status, 'CREATED');
  await gateway.node.system.effectsIdle();
  hosted = await hostedRead(gateway, order.id);
  t.is(hosted.order.amountLock, 'PAYMENT_MAY_SETTLE');
  t.like(hosted.currentPayment, { id: payment.id, status: 'CREATED' });
  const maySettle = await order.customer('POST', '/amount', { amount: '12' });
  t.is(maySettle.status, 409);
  t.deepEqual(maySettle.body.responseObject, { amountLock: 'PAYMENT_MAY_SETTLE' });

  await advance(gateway, HOUR_MS);
  hosted = await hostedRead(gateway, order.id);
  t.like(hosted.currentPayment, { id: payment.id, status: 'EXPIRED' });
  t.is(hosted.order.amountLock, null);
  t.like(hosted.order.openAmount, { effectiveMin: '5.00', effectiveMax: '100.00' });
  const reset = await order.customer('POST', '/amount', { amount: '12', amountVersion: 1 });
  t.is(reset.status, 200);
  t.like(reset.body.responseObject.order, { requestedUsdcAmount: eurToUsdc('12'), amountVersion: 2, amountLock: null });
});

test('a paid open amount is locked PAID, a cancelled order is locked too, and a fixed order takes no amount at all', async (t) => {
  const { gateway, sandboxKey, order } = await openOrder(t);
  await order.customer('POST', '/amount', { amount: '10' });
  const payment = await startPayment(order, { rail: 'revolut' });
  t.is((await order.customer('POST', `/payments/${payment.id}/simulate`)).status, 200);
  await gateway.node.system.effectsIdle();
  const hosted = await hostedRead(gateway, order.id);
  t.like(hosted.order, { status: 'FULFILLED', amountLock: 'PAID', remainingUsdcAmount: '0' });
  const paid = await order.customer('POST', '/amount', { amount: '20' });
  t.is(paid.status, 409);
  t.is(paid.body.errorCode, 'AMOUNT_LOCKED');
  t.deepEqual(paid.body.responseObject, { amountLock: 'PAID' });

  // Cancelled with nothing settled: no lock to name, but no amount is taken either (no HTTP cancel exists yet).
  const cancelled = await placeOrder(gateway, sandboxKey, OPEN);
  await gateway.node.system.askAt({ kind: 'order', id: cancelled.id }, { type: 'CANCEL', at: isoNow(gateway) });
  const closed = await cancelled.customer('POST', '/amount', { amount: '20' });
  t.is(closed.status, 409);
  t.is(closed.body.errorCode, 'AMOUNT_LOCKED');
  t.deepEqual(closed.body.responseObject, { amountLock: null });

  const fixed = await placeOrder(gateway, sandboxKey, { requestedUsdcAmount: '25' });
  const notAllowed = await fixed.customer('POST', '/amount', { amount: '20' });
  t.is(notAllowed.status, 409);
  t.is(notAllowed.body.errorCode, 'AMOUNT_NOT_ALLOWED');
  t.is(notAllowed.body.responseObject, null);
  t.like((await hostedRead(gateway, fixed.id)).order, { amountMode: 'FIXED', requestedUsdcAmount: '25' });
});
