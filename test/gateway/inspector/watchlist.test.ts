/**
 * The watchlist over HTTP (GET /internal/v1/actors/watchlist, docs/inspector.md): the
 * actors worth a look without an id. Recent turns and due timers from a sandbox payment;
 * stuck measured on the test clock against a stuckAfter the caller picks; failing
 * effects and dead letters from a counter whose effect always fails, its error quoting
 * a webhook secret that must not come out.
 */
import test from 'ava';
import { answerOf, advance, sandboxPayment } from '../../support/checkout.js';
import { counterKind } from '../../support/counter-kind.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';

const SECRET = 'whsec_0123456789abcdefghijklmnop';

async function watchlist(gateway: TestGateway, query = ''): Promise<any> {
  return answerOf(await gateway.admin('GET', `/internal/v1/actors/watchlist${query}`), 200, 'watchlist');
}

const addresses = (rows: Array<{ kind: string; id: string }>) => rows.map((row) => `${row.kind}:${row.id}`);

test('recent turns newest first, one row per actor; due timers soonest first with what they deliver', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { order, payment } = await sandboxPayment(gateway);

  const listed = await watchlist(gateway);
  t.like(listed, { asOf: new Date(gateway.clock.now()).toISOString(), stuckAfter: 15, limit: 10 });
  const recent = addresses(listed.recent);
  t.true(recent.includes(`payment:${payment.id}`) && recent.includes(`order:${order.id}`));
  t.is(new Set(recent).size, recent.length, 'one row per actor');
  const times = listed.recent.map((row: { at: string }) => Date.parse(row.at));
  t.deepEqual(
    times,
    [...times].sort((a, b) => b - a),
    'newest first',
  );
  const paymentRow = listed.recent.find((row: { id: string }) => row.id === payment.id);
  t.like(paymentRow, { machine: 'payment', state: { CREATED: 'AWAITING_PAYMENT' } });
  t.regex(paymentRow.note, /→ CREATED\.AWAITING_PAYMENT$/);

  const timer = listed.dueTimers.find((row: { id: string }) => row.id === payment.id);
  t.like(timer, { kind: 'payment', at: payment.quoteExpiresAt });
  t.is(timer.note, 'xstate.after.window.payment.CREATED delivers xstate.after.window.payment.CREATED in 60 min');

  const one = await watchlist(gateway, '?limit=1');
  t.is(one.recent.length, 1);
  t.is(one.dueTimers.length, 1);
});

test('stuck: partway through its work with no turn for stuckAfter minutes, on the test clock; resting actors never', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { payment } = await sandboxPayment(gateway);

  t.deepEqual((await watchlist(gateway, '?stuckAfter=15')).stuck, [], 'nothing has waited yet');
  await advance(gateway, 14 * 60_000);
  t.deepEqual((await watchlist(gateway, '?stuckAfter=15')).stuck, [], 'not before the 15 minutes');
  await advance(gateway, 2 * 60_000);
  const stuck = (await watchlist(gateway, '?stuckAfter=15')).stuck;
  t.deepEqual(addresses(stuck), [`payment:${payment.id}`], 'the payment is partway; the order and the merchants rest in top-level states');
  t.is(stuck[0].note, 'no turn for 16 min in CREATED.AWAITING_PAYMENT');
  t.deepEqual((await watchlist(gateway, '?stuckAfter=30')).stuck, [], 'the caller picks the while');

  // A write that is no turn (clearing done effects) moves updatedAt; the last turn still counts.
  await gateway.node.system.documents('payment').updateOne({ _id: payment.id }, { $set: { updatedAt: gateway.clock.now() } });
  t.deepEqual(addresses((await watchlist(gateway, '?stuckAfter=15')).stuck), [`payment:${payment.id}`], 'a maintenance write is not a turn');

  answerOf(await gateway.admin('POST', `/internal/v1/actors/payment/${payment.id}/events`, { event: { type: 'CANCEL' } }), 200, 'cancel');
  await gateway.node.system.effectsIdle();
  t.deepEqual((await watchlist(gateway, '?stuckAfter=15')).stuck, [], 'a cancelled payment rests');
});

test('failing effects with their error, and open dead letters, secrets redacted', async (t) => {
  const gateway = await startTestGateway(
    { RETRY_MAX_ATTEMPTS: 2 },
    { kinds: [counterKind(async () => Promise.reject(new Error(`receiver refused, secret ${SECRET}`)))] },
  );
  t.teardown(() => gateway.stop());
  const { system } = gateway.node;

  await system.askAt({ kind: 'counter', id: 'doomed' }, { type: 'OPEN' });
  await system.askAt({ kind: 'counter', id: 'doomed' }, { type: 'PROBE', label: 'x' });
  await advance(gateway, 60_000);
  await system.askAt({ kind: 'counter', id: 'flaky' }, { type: 'OPEN' });
  await system.askAt({ kind: 'counter', id: 'flaky' }, { type: 'PROBE', label: 'x' });
  await system.effectsIdle();

  const listed = await watchlist(gateway);
  t.deepEqual(addresses(listed.failingEffects), ['counter:flaky'], 'the dead-lettered effect has left the outbox');
  t.regex(listed.failingEffects[0].note, /^probe counter:flaky:\d+:0 failed 1 times: receiver refused, secret \[redacted\]$/);
  t.true(Date.parse(listed.failingEffects[0].at) > gateway.clock.now(), 'at: its next attempt');

  t.is(listed.deadLetters.length, 1);
  t.like(listed.deadLetters[0], { actor: 'counter:doomed', source: 'effect', attempts: 2, error: 'receiver refused, secret [redacted]' });
  t.false(JSON.stringify(listed).includes(SECRET));
});

test('a bad query is a 400 in the validation shape; no token a 401', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  for (const query of ['?stuckAfter=0', '?stuckAfter=soon', '?limit=51', '?limit=0', '?kind=order']) {
    const answer = await gateway.admin('GET', `/internal/v1/actors/watchlist${query}`);
    t.is(answer.status, 400, query);
    t.is(answer.body.message, 'Invalid request', query);
  }
  t.is((await gateway.request('GET', '/internal/v1/actors/watchlist')).status, 401);
});
