/**
 * Sending an event to an actor over HTTP (POST /internal/v1/actors/{kind}/{actorId}/events,
 * docs/inspector.md): applied through the actor system and recorded in the history like
 * any turn; refused, changing nothing, for an unknown event type, an event the actor's
 * state or rules refuse, a body that is not an event, a caller without the token, and on
 * a production node any actor that is not a sandbox one.
 */
import test from 'ava';
import { answerOf, placeOrder, sandboxPayment } from '../../support/checkout.js';
import { counterKind } from '../../support/counter-kind.js';
import { missingToken, startTestGateway, type TestGateway } from '../../support/gateway.js';

const send = (gateway: TestGateway, actor: string, event: unknown) => gateway.admin('POST', `/internal/v1/actors/${actor}/events`, { event });

async function turns(gateway: TestGateway, actor: string): Promise<any[]> {
  return answerOf(await gateway.admin('GET', `/internal/v1/actors/${actor}/history?limit=100`), 200, 'history').turns;
}

async function stored(gateway: TestGateway, kind: string, id: string) {
  return gateway.node.system.documents(kind).findOne({ _id: id });
}

test('an event sent is applied by the actor and recorded in its history as a turn, under the admin API’s message id', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { payment } = await sandboxPayment(gateway);
  const before = await turns(gateway, `payment/${payment.id}`);

  const answer = await gateway.request('POST', `/internal/v1/actors/payment/${payment.id}/events`, {
    body: { event: { type: 'CANCEL' } },
    headers: { authorization: `Bearer test-admin-token-0123456789abcdef`, 'x-request-id': 'engineer-cancel-1' },
  });
  const sent = answerOf(answer, 200, 'send');
  t.like(sent, { kind: 'payment', id: payment.id, messageId: 'admin-api:engineer-cancel-1' });
  t.like(sent.turn, {
    messageId: 'admin-api:engineer-cancel-1',
    event: { type: 'CANCEL' },
    stateBefore: { CREATED: 'AWAITING_PAYMENT' },
    stateAfter: 'CANCELLED',
    timer: null,
  });

  const after = await turns(gateway, `payment/${payment.id}`);
  t.is(after.length, before.length + 1);
  t.deepEqual(after.at(-1), sent.turn, 'the history holds the same turn');
  t.is(answerOf(await gateway.admin('GET', `/internal/v1/actors/payment/${payment.id}`), 200, 'actor').state, 'CANCELLED');
  const replayed = answerOf(await gateway.admin('GET', `/internal/v1/actors/payment/${payment.id}/history/${sent.turn.version}?replay=true`), 200, 'replay');
  t.is(replayed.state, 'CANCELLED', 'and it replays like any turn');
});

test('bigints are written as the history shows them, and the actor’s own rules still hold', async (t) => {
  const gateway = await startTestGateway({}, { kinds: [counterKind()] });
  t.teardown(() => gateway.stop());
  await gateway.node.system.askAt({ kind: 'counter', id: 'c1' }, { type: 'OPEN' });

  const sent = answerOf(await send(gateway, 'counter/c1', { type: 'ADD', n: 5 }), 200, 'add');
  t.like(sent, { reply: { total: '5' }, turn: { event: { type: 'ADD', n: 5 } } });
  const big = answerOf(await send(gateway, 'counter/c1', { type: 'ADD', n: { __bigint: '9007199254740993' } }), 200, 'a bigint');
  t.like(big, {
    reply: { total: '9007199254740998', applied: [5, { __bigint: '9007199254740993' }] },
    turn: { event: { n: { __bigint: '9007199254740993' } } },
  });

  const version = (await stored(gateway, 'counter', 'c1'))!.version;
  const refused = await send(gateway, 'counter/c1', { type: 'ADD', n: -1 });
  t.is(refused.status, 409);
  t.like(refused.body, { success: false, errorCode: 'EVENT_REFUSED', message: 'counter c1 refused ADD: INVALID_AMOUNT: n must not be negative' });
  const unreadable = await send(gateway, 'counter/c1', { type: 'ADD', n: 'abc' });
  t.is(unreadable.status, 422);
  t.like(unreadable.body, { errorCode: 'EVENT_FAILED', responseObject: null });
  t.regex(unreadable.body.message, /^counter c1 could not apply ADD, its fields are not what the machine reads: /);
  answerOf(await send(gateway, 'counter/c1', { type: 'CLOSE' }), 200, 'close');
  const notInState = await send(gateway, 'counter/c1', { type: 'ADD', n: 1 });
  t.like(notInState.body, { statusCode: 409, errorCode: 'EVENT_REFUSED' });
  t.regex(notInState.body.message, /EVENT_NOT_ACCEPTED: counter c1 does not accept ADD in state "CLOSED"/);
  t.is((await stored(gateway, 'counter', 'c1'))!.version, version + 1, 'only the CLOSE wrote');
});

test('an unknown event type is a 400 naming the ones the actor takes, and changes nothing; so is a creation or a delayed event', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { payment } = await sandboxPayment(gateway);
  const document = await stored(gateway, 'payment', payment.id);
  const history = await turns(gateway, `payment/${payment.id}`);

  const unknown = await send(gateway, `payment/${payment.id}`, { type: 'SHIP_IT' });
  t.is(unknown.status, 400);
  t.like(unknown.body, { success: false, errorCode: 'UNKNOWN_EVENT_TYPE', responseObject: null });
  t.regex(unknown.body.message, /^payment does not take SHIP_IT from the admin API; it takes .*\bCANCEL\b.*\bSIMULATE_PAYMENT\b/);
  for (const type of ['CREATE', 'xstate.after.window.payment.CREATED']) {
    const answer = await send(gateway, `payment/${payment.id}`, { type });
    t.is(answer.status, 400, type);
  }
  t.like((await send(gateway, `payment/${payment.id}`, { type: 'CREATE' })).body, { errorCode: 'UNKNOWN_EVENT_TYPE' });

  for (const body of [{}, { event: {} }, { event: { type: 'cancel' } }, { event: { type: 'CANCEL' }, force: true }, { event: 'CANCEL' }]) {
    const answer = await gateway.admin('POST', `/internal/v1/actors/payment/${payment.id}/events`, body);
    t.is(answer.status, 400, JSON.stringify(body));
    t.is(answer.body.message, 'Invalid request', JSON.stringify(body));
  }
  t.like((await send(gateway, 'parcel/pcl_1', { type: 'CANCEL' })).body, { statusCode: 404, errorCode: 'KIND_NOT_FOUND' });
  t.like((await send(gateway, 'payment/pay_nobody', { type: 'CANCEL' })).body, { statusCode: 404, errorCode: 'ACTOR_NOT_FOUND' });

  t.deepEqual(await stored(gateway, 'payment', payment.id), document, 'the document is as it was');
  t.deepEqual(await turns(gateway, `payment/${payment.id}`), history, 'and no turn was recorded');
});

test('without the admin token the send is a 401 and changes nothing', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { sandboxKey, payment } = await sandboxPayment(gateway);
  const document = await stored(gateway, 'payment', payment.id);

  const path = `/internal/v1/actors/payment/${payment.id}/events`;
  const anonymous = await gateway.request('POST', path, { body: { event: { type: 'CANCEL' } } });
  t.is(anonymous.status, 401);
  t.like(anonymous.body, missingToken);
  const wrong = await gateway.request('POST', path, { body: { event: { type: 'CANCEL' } }, headers: { authorization: 'Bearer not-the-token' } });
  t.is(wrong.status, 401);
  const merchantKey = await gateway.request('POST', path, { key: sandboxKey, body: { event: { type: 'CANCEL' } } });
  t.is(merchantKey.status, 401, 'a merchant’s key is no admin token');
  t.deepEqual(await stored(gateway, 'payment', payment.id), document);
});

test('a production node takes events for sandbox actors only: a live one is refused with 403 and left as it was', async (t) => {
  const gateway = await startTestGateway({ NODE_ENV: 'production' }, { kinds: [counterKind()] });
  t.teardown(() => gateway.stop());
  const { liveKey, sandboxKey } = await gateway.createMerchant();
  const live = await placeOrder(gateway, liveKey);
  const sandbox = await placeOrder(gateway, sandboxKey);
  await gateway.node.system.askAt({ kind: 'counter', id: 'c1' }, { type: 'OPEN' });
  await gateway.node.system.effectsIdle();

  for (const actor of [`order/${live.id}`, 'counter/c1']) {
    const [kind, id] = actor.split('/') as [string, string];
    const document = await stored(gateway, kind, id);
    const refused = await send(gateway, actor, { type: 'CANCEL' });
    t.is(refused.status, 403, actor);
    t.like(refused.body, { success: false, statusCode: 403, errorCode: 'LIVE_ACTOR_PROTECTED', responseObject: null });
    t.regex(refused.body.message, /is not a sandbox actor: a production node takes events from the admin API for sandbox actors only$/);
    t.deepEqual(await stored(gateway, kind, id), document, `${actor} unchanged`);
  }
  const cancelled = answerOf(await send(gateway, `order/${sandbox.id}`, { type: 'CANCEL' }), 200, 'sandbox cancel');
  t.is(cancelled.turn.stateAfter, 'CANCELLED');
});
