/**
 * Resizing a FIXED order over HTTP (POST /api/v1/merchants/me/orders/{orderId}/resize,
 * docs/resize.md): who may, when, what it changes (ORDER_RESIZED with data.resize, what
 * remains, requestedFiat withdrawn, an open attempt ended), a resize down to what settled
 * fulfilling the order, idempotency, and RESIZE_NOT_SUPPORTED for every refused case.
 */
import test from 'ava';
import type { PaymentSummary } from '../../../machines/order/index.js';
import { answerOf, hostedRead, isoNow, placeOrder, recordEvents, startPayment } from '../../support/checkout.js';
import { dashboardWorld } from '../../support/dashboard.js';
import type { TestGateway } from '../../support/gateway.js';

const USDC = 1_000_000n;
let keys = 0;
const key = () => `resize-key-${++keys}`.padEnd(12, '0');

async function world(t: { teardown(fn: () => Promise<void>): void }) {
  const dashboard = await dashboardWorld(t);
  const business = await dashboard.business();
  const { gateway } = dashboard;
  const resize = (orderId: string, requestedUsdcAmount: string, idempotencyKey = key(), apiKey = business.sandboxKey) =>
    gateway.request('POST', `/api/v1/merchants/me/orders/${orderId}/resize`, { key: apiKey, body: { requestedUsdcAmount, idempotencyKey } });
  const settle = (orderId: string, paymentId: string, usdc: bigint) =>
    gateway.node.system.askAt({ kind: 'order', id: orderId }, { type: 'APPLY_SETTLEMENT', paymentId, usdcAmount: usdc, at: isoNow(gateway) });
  return { dashboard, business, gateway, resize, settle };
}

test('a CREATED order resized: ORDER_RESIZED with data.resize, the new amount owed, requestedFiat withdrawn, a repeat changes nothing', async (t) => {
  const { gateway, business, resize } = await world(t);
  const recorder = await recordEvents(gateway);
  const order = await placeOrder(gateway, business.sandboxKey, { requestedFiatAmount: '20', requestedFiatCurrency: 'USD' });
  t.deepEqual((await hostedRead(gateway, order.id)).order.requestedFiat, { amount: '20.00', currency: 'USD' });

  const idempotencyKey = 'resize-first-0001';
  const resized = answerOf(await resize(order.id, '35.5', idempotencyKey), 200, 'resize');
  t.deepEqual(resized.resize, { previousAmountUsdc: '20', newAmountUsdc: '35.5' });
  t.false(resized.idempotentReplay);
  t.like(resized.order, { id: order.id, status: 'CREATED', amountMode: 'FIXED', requestedUsdcAmount: '35.5', remainingUsdcAmount: '35.5' });
  const hosted = await hostedRead(gateway, order.id);
  t.like(hosted.order, { requestedUsdcAmount: '35.5', remainingUsdcAmount: '35.5', requestedFiat: null });

  // The same key and amount: the first answer again, nothing changed; another amount under it is a mismatch.
  const replay = answerOf(await resize(order.id, '35.5', idempotencyKey), 200, 'replay');
  t.true(replay.idempotentReplay);
  t.deepEqual(replay.resize, resized.resize);
  const mismatch = await resize(order.id, '36', idempotencyKey);
  t.is(mismatch.status, 422);
  t.is(mismatch.body.errorCode, 'IDEMPOTENCY_KEY_MISMATCH');

  const events = await recorder.of(order.id);
  t.deepEqual(
    events.map((event) => event.type),
    ['ORDER_CREATED', 'ORDER_RESIZED'],
  );
  t.deepEqual(events[1]!.data.resize, { previousAmountUsdc: '20', newAmountUsdc: '35.5' });
  t.like(events[1]!.data.order, { requestedUsdcAmount: '35.5', remainingUsdcAmount: '35.5' });
});

test('a PARTIALLY_FULFILLED order resized owes the new amount less what settled; resized down to what settled it is FULFILLED', async (t) => {
  const { gateway, business, resize, settle } = await world(t);
  const recorder = await recordEvents(gateway);
  const order = await placeOrder(gateway, business.sandboxKey, { requestedUsdcAmount: '100' });
  await settle(order.id, 'pay_settled_1', 40n * USDC);

  const up = answerOf(await resize(order.id, '120'), 200, 'resize up');
  t.like(up.order, { status: 'PARTIALLY_FULFILLED', requestedUsdcAmount: '120', remainingUsdcAmount: '80' });

  const down = answerOf(await resize(order.id, '40'), 200, 'resize down to what settled');
  t.like(down.order, { status: 'FULFILLED', requestedUsdcAmount: '40', remainingUsdcAmount: '0', completedAt: isoNow(gateway) });
  t.deepEqual(down.resize, { previousAmountUsdc: '120', newAmountUsdc: '40' });

  const events = await recorder.of(order.id);
  t.deepEqual(
    events.map((event) => event.type),
    ['ORDER_CREATED', 'ORDER_RESIZED', 'ORDER_RESIZED', 'ORDER_FULFILLED'],
  );
  t.like(events[2]!.data.order, { status: 'FULFILLED' });
  t.deepEqual(events[2]!.data.resize, { previousAmountUsdc: '120', newAmountUsdc: '40' });
});

test('an open attempt quoted on the old amount is cancelled by the resize; the next one is quoted on the new amount', async (t) => {
  const { gateway, business, resize } = await world(t);
  const order = await placeOrder(gateway, business.sandboxKey, { requestedUsdcAmount: '25' });
  const payment = await startPayment(order, { rail: 'venmo' });
  await gateway.node.system.effectsIdle();
  t.is(payment.quote.signalIntent.amount, (25n * USDC).toString());

  answerOf(await resize(order.id, '30'), 200, 'resize');
  await gateway.node.system.effectsIdle();
  const attempts = answerOf(await gateway.request('GET', `/api/v1/merchants/me/orders/${order.id}/payments`, { key: business.sandboxKey }), 200, 'payments');
  t.like(attempts.payments[0], { id: payment.id, status: 'CANCELLED' });

  const next = await startPayment(order, { rail: 'venmo' });
  t.is(next.quote.signalIntent.amount, (30n * USDC).toString());
});

/** Puts the order's one attempt at `step`, as its payment would report it. */
async function attemptAt(gateway: TestGateway, orderId: string, overrides: Partial<PaymentSummary>) {
  const at = isoNow(gateway);
  const payment: PaymentSummary = {
    id: 'pay_reported_1',
    rail: 'venmo',
    status: 'CREATED',
    step: 'AWAITING_PAYMENT',
    railIdentifier: null,
    paid: false,
    createdAt: at,
    openedAt: at,
    ...overrides,
  } as PaymentSummary;
  await gateway.node.system.askAt({ kind: 'order', id: orderId }, { type: 'PAYMENT_UPDATED', payment });
}

test('RESIZE_NOT_SUPPORTED for every refused case, with the reason and what settled, and nothing changes', async (t) => {
  const { gateway, business, resize, settle } = await world(t);
  const recorder = await recordEvents(gateway);
  const cases: [string, () => Promise<string>, string, string, string][] = [
    ['an OPEN order', async () => (await placeOrder(gateway, business.sandboxKey, { openAmount: { currency: 'EUR' } })).id, '30', 'OPEN_AMOUNT', '0'],
    [
      'dynamic orders off',
      async () => (await placeOrder(gateway, business.sandboxKey, { requestedUsdcAmount: '25', dynamicOrdersEnabled: false })).id,
      '30',
      'DYNAMIC_ORDERS_DISABLED',
      '0',
    ],
    [
      'FULFILLED',
      async () => {
        const { id } = await placeOrder(gateway, business.sandboxKey, { requestedUsdcAmount: '25' });
        await settle(id, `pay_full_${id}`, 25n * USDC);
        return id;
      },
      '30',
      'ORDER_FULFILLED',
      '25',
    ],
    [
      'CANCELLED',
      async () => {
        const { id } = await placeOrder(gateway, business.sandboxKey, { requestedUsdcAmount: '25' });
        await gateway.node.system.askAt({ kind: 'order', id }, { type: 'CANCEL', at: isoNow(gateway) });
        return id;
      },
      '30',
      'ORDER_CANCELLED',
      '0',
    ],
    ...(['VERIFYING', 'FULFILLING', 'AWAITING_SETTLEMENT'] as const).map(
      (step) =>
        [
          `an attempt ${step}`,
          async () => {
            const { id } = await placeOrder(gateway, business.sandboxKey, { requestedUsdcAmount: '25' });
            await attemptAt(gateway, id, { step });
            return id;
          },
          '30',
          'PAYMENT_MAY_SETTLE',
          '0',
        ] as [string, () => Promise<string>, string, string, string],
    ),
    [
      'the customer said they paid',
      async () => {
        const { id } = await placeOrder(gateway, business.sandboxKey, { requestedUsdcAmount: '25' });
        await attemptAt(gateway, id, { paid: true });
        return id;
      },
      '30',
      'PAYMENT_MAY_SETTLE',
      '0',
    ],
    [
      'below what settled',
      async () => {
        const { id } = await placeOrder(gateway, business.sandboxKey, { requestedUsdcAmount: '25' });
        await settle(id, `pay_part_${id}`, 10n * USDC);
        return id;
      },
      '9.999999',
      'BELOW_SETTLED',
      '10',
    ],
    ['the amount it has', async () => (await placeOrder(gateway, business.sandboxKey, { requestedUsdcAmount: '25' })).id, '25', 'SAME_AMOUNT', '0'],
  ];
  for (const [what, make, amount, reason, settledUsdcAmount] of cases) {
    const orderId = await make();
    const before = (await hostedRead(gateway, orderId)).order;
    const refused = await resize(orderId, amount);
    t.is(refused.status, 409, what);
    t.is(refused.body.errorCode, 'RESIZE_NOT_SUPPORTED', what);
    t.deepEqual(refused.body.responseObject, { reason, settledUsdcAmount }, what);
    const after = (await hostedRead(gateway, orderId)).order;
    t.is(after.requestedUsdcAmount, before.requestedUsdcAmount, what);
    t.false((await recorder.typesOf(orderId)).includes('ORDER_RESIZED'), what);
  }
});

test('who may resize: an API key, an Owner or a Manager; a cashier is refused; another merchant’s order is 404; a bad amount is 400', async (t) => {
  const { dashboard, business, gateway, resize } = await world(t);
  const owner = await dashboard.signIn(business.ownerEmail);
  const manager = await dashboard.member(owner, 'manager@acme.example', 'MANAGER');
  const cashier = await dashboard.member(owner, 'cashier@acme.example', 'CASHIER');
  // A session looks at the LIVE account: the order is the live one's.
  const order = await placeOrder(gateway, business.liveKey, { requestedUsdcAmount: '25' });
  const bySession = (session: typeof owner, amount: string, csrf?: string | null) =>
    dashboard.call(session, 'POST', `/api/v1/merchants/me/orders/${order.id}/resize`, {
      body: { requestedUsdcAmount: amount, idempotencyKey: key() },
      ...(csrf === undefined ? {} : { csrf }),
    });

  const refused = await bySession(cashier, '26');
  t.is(refused.status, 403);
  t.is(refused.body.errorCode, 'ROLE_NOT_ALLOWED');
  const noCsrf = await bySession(owner, '26', null);
  t.is(noCsrf.status, 403);
  t.is(noCsrf.body.errorCode, 'CSRF_TOKEN_MISSING');
  t.like(answerOf(await bySession(owner, '26'), 200, 'owner').order, { requestedUsdcAmount: '26' });
  t.like(answerOf(await bySession(manager, '27'), 200, 'manager').order, { requestedUsdcAmount: '27' });
  t.like(answerOf(await resize(order.id, '28', key(), business.liveKey), 200, 'api key').order, { requestedUsdcAmount: '28' });

  const audit = answerOf(await dashboard.call(owner, 'GET', '/api/v1/merchants/me/audit-log'), 200, 'audit');
  const resizes = audit.entries.filter((entry: { operationId: string }) => entry.operationId === 'resizeOrder');
  t.deepEqual(resizes.map((entry: { status: number }) => entry.status).sort(), [200, 200, 200, 403]);

  const other = await gateway.createMerchant();
  const theirs = await resize(order.id, '30', key(), other.liveKey);
  t.is(theirs.status, 404);
  t.is((await resize(order.id, '30', key(), business.sandboxKey)).status, 404, 'the other environment');
  for (const amount of ['0', '-1', '1.1234567', '100000000']) t.is((await resize(order.id, amount)).status, 400, amount);
});
