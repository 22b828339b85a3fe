import test, { type ExecutionContext } from 'ava';
import { CommandRejectedError, type DomainEvent } from '../../../actors/index.js';
import { orderKind } from '../../../actors/kinds/index.js';
import type { CommandOf } from '../../../actors/runtime/actor-kind.js';
import type { CheckoutOrder, OrderInput } from '../../../machines/order/index.js';
import { CREATED_AT, fixedOrderInput, openOrderInput } from '../../support/order-input.js';
import { startTestSystem } from '../../support/test-node.js';
import { CHECKOUT_ORDER_FIELDS } from '../../support/checkout-order-fields.js';

async function startOrders() {
  const { system, bus } = await startTestSystem({ kinds: [orderKind] });
  const events: DomainEvent[] = [];
  await bus.consume({ durable: 'order-kind-test', kinds: ['order'] }, async (event) => void events.push(event));
  const ask = (id: string, command: CommandOf<typeof orderKind>, messageId?: string) => system.ask(orderKind, id, command, { messageId });
  return {
    system,
    create: (input: OrderInput = fixedOrderInput()) => ask(input.id, { type: 'CREATE', ...input }),
    settle: (id: string, paymentId: string, usdcAmount: bigint, messageId?: string) =>
      ask(id, { type: 'APPLY_SETTLEMENT', paymentId, usdcAmount, at: '2026-11-23T12:30:00.000Z' }, messageId),
    cancel: (id: string) => ask(id, { type: 'CANCEL', at: '2026-11-23T13:00:00.000Z' }),
    doc: async (id: string) => (await system.views(orderKind).findOne({ _id: id }))!,
    /** The domain events published so far, once every queued effect has run. */
    published: async (type?: string) => {
      await system.effectsIdle();
      for (let i = 0; i < 100; i++) await new Promise((resolve) => setImmediate(resolve));
      return events.filter((event) => type === undefined || event.type === type);
    },
  };
}

async function rejection(t: ExecutionContext, promise: Promise<unknown>): Promise<CommandRejectedError> {
  return (await t.throwsAsync(promise, { instanceOf: CommandRejectedError })) as CommandRejectedError;
}

test('creating an order gives CREATED, the full CheckoutOrder in its view and reply, and one ORDER_CREATED on the bus', async (t) => {
  const orders = await startOrders();
  const input = fixedOrderInput({ idempotencyKey: 'key-00000001', requestHash: 'h'.repeat(64) });
  const reply = await orders.create(input);
  t.is(reply.order.status, 'CREATED');
  t.is(reply.orderTokenHash, input.orderTokenHash);

  const { view } = await orders.doc('ord_fixed');
  const viewOrder = view.order;
  t.deepEqual(viewOrder, reply.order);
  t.deepEqual(Object.keys(viewOrder).sort(), [...CHECKOUT_ORDER_FIELDS].sort());
  t.like(viewOrder, {
    id: 'ord_fixed',
    merchantId: 'mer_1',
    amountMode: 'FIXED',
    requestedUsdcAmount: '100',
    remainingUsdcAmount: '100',
    destinationChainId: '8453',
  });
  t.like(view, {
    merchantId: 'mer_1',
    environment: 'LIVE',
    status: 'CREATED',
    chargebackStatus: 'NONE',
    createdAt: CREATED_AT,
    idempotencyKey: 'key-00000001',
    requestHash: 'h'.repeat(64),
    orderTokenHash: input.orderTokenHash,
    hasActivePayment: false,
    hasExpiredPayment: false,
    paymentSelectedRail: null,
    hosted: { requestedFiat: null, amountLock: null, bridgeInfo: null, applePayChargeUsdcAmount: null, savedInput: null },
  });
  t.is(view.searchText, 'ord_fixed\n{"sku":"a1","customer":"ada lovelace"}');
  t.false(JSON.stringify(view).includes('__bigint'), 'the view is plain JSON');

  const created = await orders.published('ORDER_CREATED');
  t.is(created.length, 1);
  t.deepEqual(created[0]!.data, { order: reply.order });
  t.deepEqual(created[0]!.actor, { kind: 'order', id: 'ord_fixed' });
});

test('a FIXED order: part settles to PARTIALLY_FULFILLED, the rest to FULFILLED with completedAt and ORDER_FULFILLED', async (t) => {
  const orders = await startOrders();
  await orders.create();
  const partial = await orders.settle('ord_fixed', 'pay_1', 30_000_000n);
  t.like(partial.order, { status: 'PARTIALLY_FULFILLED', remainingUsdcAmount: '70', requestedUsdcAmount: '100', completedAt: null });
  t.is((await orders.doc('ord_fixed')).view.status, 'PARTIALLY_FULFILLED');
  t.like((await orders.doc('ord_fixed')).view.hosted, { amountLock: 'PAID' });

  const fulfilled = await orders.settle('ord_fixed', 'pay_2', 70_000_000n);
  t.like(fulfilled.order, { status: 'FULFILLED', remainingUsdcAmount: '0', completedAt: '2026-11-23T12:30:00.000Z', updatedAt: '2026-11-23T12:30:00.000Z' });
  const announced = await orders.published('ORDER_FULFILLED');
  t.is(announced.length, 1);
  t.deepEqual(announced[0]!.data, { order: fulfilled.order });
  t.deepEqual(
    (await orders.published()).map((event) => event.type),
    ['ORDER_CREATED', 'ORDER_FULFILLED'],
  );
});

test('dust: 99.6 of 100 settled fulfils; 99.5 (a residual of exactly the threshold) does not', async (t) => {
  const orders = await startOrders();
  await orders.create(fixedOrderInput({ id: 'ord_dust' }));
  t.like((await orders.settle('ord_dust', 'pay_1', 99_600_000n)).order, { status: 'FULFILLED', remainingUsdcAmount: '0.4' });

  await orders.create(fixedOrderInput({ id: 'ord_edge' }));
  t.like((await orders.settle('ord_edge', 'pay_1', 99_500_000n)).order, { status: 'PARTIALLY_FULFILLED', remainingUsdcAmount: '0.5' });
});

test('a merchant threshold of 2 USDC fulfils at 98.5 settled, and one of 0 only at the full amount', async (t) => {
  const orders = await startOrders();
  await orders.create(fixedOrderInput({ id: 'ord_loose', completionDustThresholdUsdc: 2_000_000n }));
  t.is((await orders.settle('ord_loose', 'pay_1', 98_500_000n)).order.status, 'FULFILLED');

  await orders.create(fixedOrderInput({ id: 'ord_exact', completionDustThresholdUsdc: 0n }));
  t.is((await orders.settle('ord_exact', 'pay_1', 99_999_999n)).order.status, 'PARTIALLY_FULFILLED');
  t.is((await orders.settle('ord_exact', 'pay_2', 1n)).order.status, 'FULFILLED');
});

test('the same payment settling twice is refused SETTLEMENT_ALREADY_APPLIED and changes nothing', async (t) => {
  const orders = await startOrders();
  await orders.create();
  await orders.settle('ord_fixed', 'pay_1', 30_000_000n);
  const before = await orders.doc('ord_fixed');

  const refused = await rejection(t, orders.settle('ord_fixed', 'pay_1', 30_000_000n));
  t.is(refused.code, 'SETTLEMENT_ALREADY_APPLIED');
  t.is(refused.status, 409);
  t.regex(refused.message, /pay_1/);
  const after = await orders.doc('ord_fixed');
  t.is(after.version, before.version);
  t.is(after.view.order.remainingUsdcAmount, '70');
});

test('the same message retried is applied once and answered with the first reply', async (t) => {
  const orders = await startOrders();
  await orders.create();
  const first = await orders.settle('ord_fixed', 'pay_1', 30_000_000n, 'settle-msg-1');
  const retries = await Promise.all(Array.from({ length: 5 }, () => orders.settle('ord_fixed', 'pay_1', 30_000_000n, 'settle-msg-1')));
  for (const retry of retries) t.deepEqual(retry, first);
  t.is((await orders.doc('ord_fixed')).view.order.remainingUsdcAmount, '70');
});

test('a settlement of zero or less is refused INVALID_AMOUNT (400)', async (t) => {
  const orders = await startOrders();
  await orders.create();
  for (const amount of [0n, -5n]) {
    const refused = await rejection(t, orders.settle('ord_fixed', 'pay_1', amount));
    t.is(refused.code, 'INVALID_AMOUNT');
    t.is(refused.status, 400);
  }
  t.is((await orders.doc('ord_fixed')).view.status, 'CREATED');
});

test('CANCEL from CREATED and from PARTIALLY_FULFILLED gives CANCELLED, cancelledAt and ORDER_CANCELLED', async (t) => {
  const orders = await startOrders();
  await orders.create(fixedOrderInput({ id: 'ord_a' }));
  await orders.create(fixedOrderInput({ id: 'ord_b' }));
  await orders.settle('ord_b', 'pay_1', 10_000_000n);

  for (const id of ['ord_a', 'ord_b']) {
    const cancelled = await orders.cancel(id);
    t.like(cancelled.order, { status: 'CANCELLED', cancelledAt: '2026-11-23T13:00:00.000Z', completedAt: null });
    t.is((await orders.doc(id)).view.status, 'CANCELLED');
  }
  const announced = await orders.published('ORDER_CANCELLED');
  t.deepEqual(announced.map((event) => event.actor.id).sort(), ['ord_a', 'ord_b']);
  t.like(announced.find((event) => event.actor.id === 'ord_b')!.data.order as CheckoutOrder, { status: 'CANCELLED', remainingUsdcAmount: '90' });
});

test('CANCEL of a FULFILLED or CANCELLED order is refused ORDER_STATUS_NOT_ELIGIBLE and changes nothing', async (t) => {
  const orders = await startOrders();
  await orders.create(fixedOrderInput({ id: 'ord_done' }));
  await orders.settle('ord_done', 'pay_1', 100_000_000n);
  await orders.create(fixedOrderInput({ id: 'ord_gone' }));
  await orders.cancel('ord_gone');

  for (const [id, status] of [
    ['ord_done', 'FULFILLED'],
    ['ord_gone', 'CANCELLED'],
  ] as const) {
    const before = await orders.doc(id);
    const refused = await rejection(t, orders.cancel(id));
    t.is(refused.code, 'ORDER_STATUS_NOT_ELIGIBLE');
    t.is(refused.status, 409);
    const after = await orders.doc(id);
    t.is(after.version, before.version);
    t.is(after.view.status, status);
  }
  t.is((await orders.published('ORDER_CANCELLED')).length, 1);
});

test('a settlement after a cancel is recorded and lowers what remains; the order stays CANCELLED', async (t) => {
  const orders = await startOrders();
  await orders.create();
  await orders.cancel('ord_fixed');
  const late = await orders.settle('ord_fixed', 'pay_late', 40_000_000n);
  t.like(late.order, { status: 'CANCELLED', remainingUsdcAmount: '60', cancelledAt: '2026-11-23T13:00:00.000Z', updatedAt: '2026-11-23T12:30:00.000Z' });
  t.is((await rejection(t, orders.settle('ord_fixed', 'pay_late', 40_000_000n))).code, 'SETTLEMENT_ALREADY_APPLIED');
  t.deepEqual(
    (await orders.published()).map((event) => event.type),
    ['ORDER_CREATED', 'ORDER_CANCELLED'],
  );
});

test('an OPEN order has null amounts and amountVersion 0, and refuses a settlement AMOUNT_REQUIRED', async (t) => {
  const orders = await startOrders();
  const created = await orders.create(openOrderInput());
  const before = await orders.doc('ord_open');
  t.like(created.order, { amountMode: 'OPEN', status: 'CREATED', requestedUsdcAmount: null, remainingUsdcAmount: null, amountVersion: 0 });
  t.deepEqual((created.order as { openAmount: unknown }).openAmount, { currency: 'EUR', minAmount: '5.00', maxAmount: '500.00', presets: ['10.00', '20.00'] });

  const refused = await rejection(t, orders.settle('ord_open', 'pay_1', 10_000_000n));
  t.is(refused.code, 'AMOUNT_REQUIRED');
  // The status of the code's row in the error table: the one the checkout answers AMOUNT_REQUIRED with.
  // The order's refusal of a settlement only ever goes back to the payment that told it, never to a client.
  t.is(refused.status, 422);
  t.is((await orders.doc('ord_open')).version, before.version);
});

test('list queries: newest first per merchant and environment, by status, and by search text, over the view indexes', async (t) => {
  const orders = await startOrders();
  const at = (minute: number) => `2026-11-23T12:${String(minute).padStart(2, '0')}:00.000Z`;
  await orders.create(fixedOrderInput({ id: 'ord_1', at: at(1), notes: { item: 'Blue Mug' } }));
  await orders.create(fixedOrderInput({ id: 'ord_3', at: at(3) }));
  await orders.create(fixedOrderInput({ id: 'ord_2', at: at(2) }));
  await orders.create(fixedOrderInput({ id: 'ord_sandbox', at: at(4), environment: 'SANDBOX' }));
  await orders.create(fixedOrderInput({ id: 'ord_other', at: at(5), merchantId: 'mer_2' }));
  await orders.settle('ord_2', 'pay_1', 100_000_000n);

  const collection = orders.system.documents('order');
  const ids = async (filter: Record<string, unknown>) =>
    (await collection.find({ 'view.merchantId': 'mer_1', 'view.environment': 'LIVE', ...filter }, { sort: { 'view.createdAt': -1 } })).map((doc) => doc._id);
  t.deepEqual(await ids({}), ['ord_3', 'ord_2', 'ord_1']);
  t.deepEqual(await ids({ 'view.status': 'CREATED' }), ['ord_3', 'ord_1']);
  t.deepEqual(await ids({ 'view.searchText': { $regex: 'blue mug' } }), ['ord_1']);
});

test('an idempotency key is unique per merchant and environment; orders without one are not held to it', async (t) => {
  const orders = await startOrders();
  await orders.create(fixedOrderInput({ id: 'ord_k1', idempotencyKey: 'same-key-1' }));
  await orders.create(fixedOrderInput({ id: 'ord_k2', idempotencyKey: 'same-key-1', environment: 'SANDBOX' }));
  await orders.create(fixedOrderInput({ id: 'ord_n1' }));
  await orders.create(fixedOrderInput({ id: 'ord_n2' }));

  // Which error surfaces is the runtime's business (today a ConflictError after its retries); that nothing is written is the order's.
  await t.throwsAsync(orders.create(fixedOrderInput({ id: 'ord_k3', idempotencyKey: 'same-key-1' })));
  t.is(await orders.system.documents('order').findOne({ _id: 'ord_k3' }), null);
});
