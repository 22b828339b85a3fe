/**
 * The inspector over HTTP (/internal/v1/actors…, docs/inspector.md), behind the admin
 * token, every answer held to the served OpenAPI document: an actor as its document
 * stands, its turns paged, the actor as of any turn from the stored snapshot and by
 * replay, and search by id, address, merchant, order and endpoint.
 */
import test from 'ava';
import { answerOf, HOUR_MS, placeOrder, startPayment } from '../../support/checkout.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { inspectedRun } from '../../support/inspected-run.js';

async function read(gateway: TestGateway, path: string): Promise<any> {
  return answerOf(await gateway.admin('GET', path), 200, path);
}

async function allTurns(gateway: TestGateway, actor: string, limit: number): Promise<any[]> {
  const turns: any[] = [];
  for (let after = 0; ; ) {
    const page = await read(gateway, `/internal/v1/actors/${actor}/history?limit=${limit}&after=${after}`);
    turns.push(...page.turns);
    if (!page.hasMore) {
      if (page.nextAfter !== null) throw new Error('a last page names no next one');
      return turns;
    }
    after = page.nextAfter;
  }
}

test('an actor as its document stands: state, machine, context, view, timers with their due times and events, outbox, times', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { sandboxKey, sandboxId } = await gateway.createMerchant();
  const order = await placeOrder(gateway, sandboxKey);
  const payment = await startPayment(order);
  await gateway.node.system.effectsIdle();

  const actor = await read(gateway, `/internal/v1/actors/payment/${payment.id}`);
  t.like(actor, { kind: 'payment', id: payment.id, machine: 'payment', state: { CREATED: 'AWAITING_PAYMENT' }, status: 'active', outbox: [] });
  t.like(actor.context, { id: payment.id, orderId: order.id, merchantId: sandboxId, quoteExpiresAt: payment.quoteExpiresAt });
  t.like(actor.view, { orderId: order.id, status: 'CREATED' });
  t.deepEqual(actor.timers, [
    {
      id: 'xstate.after.window.payment.CREATED',
      dueAt: payment.quoteExpiresAt,
      event: { type: 'xstate.after.window.payment.CREATED' },
      attempts: 0,
      retryAt: null,
    },
  ]);
  t.is(actor.createdAt, new Date(gateway.clock.now()).toISOString());
  const stored = await gateway.node.system.documents('payment').findOne({ _id: payment.id });
  t.is(actor.version, stored!.version);

  const orderActor = await read(gateway, `/internal/v1/actors/order/${order.id}`);
  t.like(orderActor, { machine: 'order', state: 'CREATED', view: { status: 'CREATED', merchantId: sandboxId } });
  t.like(orderActor.context.requestedUsdcAmount, { __bigint: '25000000' }, 'bigints as the codec stores them');
});

test('unknown kinds, actors and turns are 404s in the envelope; malformed ones 400; no token 401', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { sandboxKey } = await gateway.createMerchant();
  const order = await placeOrder(gateway, sandboxKey);

  for (const path of ['/internal/v1/actors/parcel/ord_x', '/internal/v1/actors/parcel/ord_x/history', '/internal/v1/actors/parcel/ord_x/history/1']) {
    const answer = await gateway.admin('GET', path);
    t.is(answer.status, 404, path);
    t.like(answer.body, { success: false, statusCode: 404, errorCode: 'KIND_NOT_FOUND', responseObject: null });
  }
  for (const path of [
    '/internal/v1/actors/order/ord_nobody',
    '/internal/v1/actors/order/ord_nobody/history',
    '/internal/v1/actors/order/ord_nobody/history/1',
  ]) {
    t.like((await gateway.admin('GET', path)).body, { statusCode: 404, errorCode: 'ACTOR_NOT_FOUND' }, path);
  }
  t.like((await gateway.admin('GET', `/internal/v1/actors/order/${order.id}/history/99`)).body, { statusCode: 404, errorCode: 'TURN_NOT_FOUND' });
  t.like((await gateway.admin('GET', `/internal/v1/actors/order/${order.id}/history/99?replay=true`)).body, { statusCode: 404, errorCode: 'TURN_NOT_FOUND' });

  for (const path of [
    '/internal/v1/actors/order/ord%2Ex',
    `/internal/v1/actors/order/${order.id}/history/0`,
    `/internal/v1/actors/order/${order.id}/history/one`,
    `/internal/v1/actors/order/${order.id}/history?limit=101`,
    `/internal/v1/actors/order/${order.id}/history?after=-1`,
    `/internal/v1/actors/order/${order.id}/history/1?replay=yes`,
    '/internal/v1/actors?query=not%20an%20id',
    '/internal/v1/actors',
  ]) {
    const answer = await gateway.admin('GET', path);
    t.is(answer.status, 400, path);
    t.is(answer.body.message, 'Invalid request', path);
  }
  const anonymous = await gateway.request('GET', `/internal/v1/actors/order/${order.id}`);
  t.is(anonymous.status, 401);
});

test('turns are paged by version, oldest first, each with its event, time, message id, states and effects; a timer’s turn names it', async (t) => {
  const { world, paid, paymentId, expired } = await inspectedRun(t);
  const { gateway } = world;

  const order = await allTurns(gateway, `order/${paid.id}`, 100);
  t.deepEqual(await allTurns(gateway, `order/${paid.id}`, 1), order, 'pages of one give the same turns');
  t.deepEqual(
    order.map((turn) => turn.version),
    [...order.map((turn) => turn.version)].sort((a, b) => a - b),
  );
  t.like(order[0], { stateBefore: null, stateAfter: 'CREATED', event: { type: 'CREATE', id: paid.id }, timer: null });
  t.deepEqual(
    order[0].effects.outbox.map((entry: { event: string }) => entry.event),
    ['ORDER_CREATED'],
  );
  t.is(order.at(-1).stateAfter, 'FULFILLED');
  t.true(order.some((turn) => turn.effects.outbox.some((entry: { event?: string }) => entry.event === 'ORDER_FULFILLED')));

  const payment = await allTurns(gateway, `payment/${paymentId}`, 100);
  t.like(payment[0], { stateBefore: null, effects: { timersSet: [{ id: 'xstate.after.window.payment.CREATED' }] } });
  const simulated = payment.find((turn) => turn.event.type === 'SIMULATE_PAYMENT');
  t.truthy(simulated, 'the customer’s simulate is a turn');
  t.true(
    simulated.effects.outbox.some((entry: { type: string; to?: string }) => entry.type === 'tell' && entry.to === `order:${paid.id}`),
    'it tells the order',
  );

  const expiredPaymentId = (await read(gateway, `/internal/v1/actors/order/${expired.id}`)).context.payments[0].id;
  const expiredTurns = await allTurns(gateway, `payment/${expiredPaymentId}`, 100);
  const window = expiredTurns[0].effects.timersSet[0];
  t.is(Date.parse(window.dueAt) - Date.parse(expiredTurns[0].at), HOUR_MS, 'the window is armed for an hour');
  const expiry = expiredTurns.find((turn) => turn.timer !== null);
  t.like(expiry, { timer: window.id, event: { type: window.event }, messageId: `timer:${window.id}@${Date.parse(window.dueAt)}` });
  t.true(Date.parse(expiry.at) >= Date.parse(window.dueAt), 'it fires once the clock has passed it');
  t.true(JSON.stringify(expiry.stateAfter).includes('EXPIRED'));
});

test('the actor as of any turn: the stored snapshot and the replay from creation agree', async (t) => {
  const { world, paymentId, paid } = await inspectedRun(t);
  const { gateway } = world;
  for (const actor of [`payment/${paymentId}`, `order/${paid.id}`]) {
    for (const turn of await allTurns(gateway, actor, 100)) {
      const stored = await read(gateway, `/internal/v1/actors/${actor}/history/${turn.version}`);
      const replayed = await read(gateway, `/internal/v1/actors/${actor}/history/${turn.version}?replay=true`);
      t.like(stored, { version: turn.version, source: 'snapshot', replayedFrom: null, state: turn.stateAfter, turn });
      t.like(replayed, { version: turn.version, source: 'replay', replayedFrom: 0, state: turn.stateAfter });
      t.deepEqual(replayed.context, stored.context, `${actor} after turn ${turn.version}`);
    }
  }
  const first = await read(gateway, `/internal/v1/actors/order/${paid.id}/history/1`);
  t.like(first.context, { settlements: [], remainingUsdcAmount: { __bigint: '25000000' } }, 'before the payment settled');
});

test('search by id, by kind:id, by merchant, by the order of a payment and by endpoint; limit and hasMore', async (t) => {
  const { world, paid, paymentId, expired } = await inspectedRun(t);
  const { gateway, merchant, webhook } = world;
  const found = async (query: string, limit = 100) => read(gateway, `/internal/v1/actors?query=${query}&limit=${limit}`);
  const addresses = (answer: { actors: Array<{ kind: string; id: string; match: string }> }) =>
    answer.actors.map((actor) => `${actor.match} ${actor.kind}:${actor.id}`);

  t.deepEqual(addresses(await found(paid.id)), [`id order:${paid.id}`, `orderId payment:${paymentId}`]);
  t.deepEqual(addresses(await found(`payment:${paymentId}`)), [`id payment:${paymentId}`]);
  t.deepEqual(addresses(await found(`order:${paymentId}`)), [], 'an address names its kind');

  const byMerchant = addresses(await found(merchant.sandboxId));
  t.is(byMerchant[0], `id merchant:${merchant.sandboxId}`);
  for (const address of [`order:${paid.id}`, `order:${expired.id}`, `payment:${paymentId}`, `webhook:${webhook.id}`]) {
    t.true(byMerchant.includes(`merchantId ${address}`), address);
  }
  t.true(byMerchant.some((hit) => hit.startsWith('merchantId delivery:')));

  const byEndpoint = await found(webhook.id);
  t.is(addresses(byEndpoint)[0], `id webhook:${webhook.id}`);
  t.true(byEndpoint.actors.slice(1).every((actor: { kind: string; match: string }) => actor.kind === 'delivery' && actor.match === 'webhookId'));
  t.true(byEndpoint.actors.length > 1);

  const one = await found(merchant.sandboxId, 1);
  t.like(one, { limit: 1, hasMore: true });
  t.is(one.actors.length, 1);
  t.like(await found('ord_nobody'), { actors: [], hasMore: false });
  t.like(await found(paid.id), { hasMore: false, query: paid.id });
  t.like((await found(paid.id)).actors[0], { machine: 'order', state: 'FULFILLED' });
});
