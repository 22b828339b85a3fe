/**
 * Document 1's remediation routes through HTTP: acceptance and the poll, the idempotency table,
 * who may ask (sandbox key, plan), the switches, the support side, the approval window on the
 * test clock and the per-merchant limits. Every answer is held to the served OpenAPI document.
 */
import test from 'ava';
import { actionKind } from '../../../actors/kinds/index.js';
import type { ApprovalRequest } from '../../../gateway/actions/support-desk.js';
import { advance, placeOrder } from '../../support/checkout.js';
import { startTestGateway, withGateway, withMerchant, type TestGateway } from '../../support/gateway.js';
import { liveAttempt } from '../../support/remediation.js';

const MINUTE = 60_000;

async function proMerchant(gateway: TestGateway) {
  return gateway.createMerchant({ name: 'Pro', tier: 'PRO', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
}

const poll = (gateway: TestGateway, key: string, orderId: string, actionId: string) =>
  gateway.request('GET', `/api/v1/merchants/me/orders/${orderId}/actions/${actionId}`, { key });

test('a BASE merchant’s extend waits for approval: 202, the poll shows it with the attempt’s row, staff approve it and it runs', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    const accepted = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey });
    t.is(accepted.status, 202);
    t.like(accepted.body, { success: true, statusCode: 202, responseObject: { status: 'PENDING_APPROVAL' } });
    const { actionId } = accepted.body.responseObject;
    t.regex(actionId, /^act_[0-9A-Za-z]{24}$/);

    const polled = await poll(gateway, merchant.liveKey, attempt.order.id, actionId);
    t.is(polled.status, 200);
    t.like(polled.body.responseObject, {
      actionId,
      actionName: 'EXTEND',
      paymentId: attempt.paymentId,
      status: 'PENDING_APPROVAL',
      error: null,
      result: null,
      startedAt: null,
      finishedAt: null,
      payment: { id: attempt.paymentId, status: 'CREATED', railIdentifier: attempt.intentHash },
    });

    const waiting = await gateway.admin('GET', '/internal/v1/actions');
    t.deepEqual(
      waiting.body.responseObject.actions.map((action: { actionId: string }) => action.actionId),
      [actionId],
    );
    const approved = await gateway.admin('POST', `/internal/v1/actions/${actionId}/approve`, { by: 'alice@peer' });
    t.is(approved.status, 200);
    t.is(approved.body.responseObject.status, 'QUEUED');
    await gateway.node.system.effectsIdle();
    // The runner claimed it and handed the extension to the attempt; this node has no chain to send it on.
    const running = await poll(gateway, merchant.liveKey, attempt.order.id, actionId);
    t.is(running.body.responseObject.status, 'RUNNING');
    t.truthy(running.body.responseObject.startedAt);
    t.is((await gateway.admin('POST', `/internal/v1/actions/${actionId}/reject`, { by: 'bob@peer' })).body.errorCode, 'EVENT_NOT_ACCEPTED');
  });
});

test('a PRO merchant’s action runs without approval', async (t) => {
  await withGateway(async (gateway) => {
    const merchant = await proMerchant(gateway);
    const attempt = await liveAttempt(gateway, merchant, 'CANCELLED');
    const accepted = await gateway.request('POST', attempt.path('recreate'), { key: merchant.liveKey, body: {} });
    t.is(accepted.status, 202);
    t.is(accepted.body.responseObject.status, 'QUEUED');
    await gateway.node.system.effectsIdle();
    const polled = await poll(gateway, merchant.liveKey, attempt.order.id, accepted.body.responseObject.actionId);
    t.is(polled.body.responseObject.status, 'RUNNING');
    // The reopening started: the attempt is CREATED again, waiting for its new intent (no railIdentifier yet).
    t.like(polled.body.responseObject.payment, { status: 'CREATED', railIdentifier: null });
    t.deepEqual((await gateway.admin('GET', '/internal/v1/actions')).body.responseObject.actions, []);
  });
});

test('the idempotency table: replay in any state, mismatch, a live action of the kind, and a finished one’s key', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    const other = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    const key = 'extend-attempt-1';
    const first = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body: { idempotencyKey: key } });
    t.is(first.status, 202);
    const { actionId } = first.body.responseObject;

    const replay = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body: { idempotencyKey: key } });
    t.is(replay.status, 200);
    t.deepEqual(replay.body.responseObject, { actionId, status: 'PENDING_APPROVAL' });

    for (const [what, path, body] of [
      ['another payment', other.path('extend'), { idempotencyKey: key }],
      ['another action', attempt.path('fulfill-sar'), { idempotencyKey: key, txId: '4100001' }],
    ] as const) {
      const mismatch = await gateway.request('POST', path, { key: merchant.liveKey, body });
      t.is(mismatch.status, 422, what);
      t.deepEqual(mismatch.body.responseObject, { code: 'IDEMPOTENCY_KEY_MISMATCH' }, what);
      t.is(mismatch.body.errorCode, 'IDEMPOTENCY_KEY_MISMATCH', what);
    }

    for (const body of [undefined, { idempotencyKey: 'extend-attempt-2' }]) {
      const busy = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body });
      t.is(busy.status, 409);
      t.deepEqual(busy.body.responseObject, { code: 'ACTION_IN_PROGRESS', actionId });
    }

    t.is((await gateway.admin('POST', `/internal/v1/actions/${actionId}/reject`, { by: 'alice@peer' })).status, 200);
    const blocked = await poll(gateway, merchant.liveKey, attempt.order.id, actionId);
    t.like(blocked.body.responseObject, { status: 'BLOCKED', error: { code: 'APPROVAL_REJECTED' } });
    // The old key keeps replaying the finished action; a new key makes a new one.
    const replayedBlocked = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body: { idempotencyKey: key } });
    t.deepEqual([replayedBlocked.status, replayedBlocked.body.responseObject], [200, { actionId, status: 'BLOCKED' }]);
    const fresh = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body: { idempotencyKey: 'extend-attempt-3' } });
    t.is(fresh.status, 202);
    t.not(fresh.body.responseObject.actionId, actionId);

    // Switched off, a replay still answers; a new request does not.
    await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { remediationActionsEnabled: false });
    const offReplay = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body: { idempotencyKey: key } });
    t.deepEqual([offReplay.status, offReplay.body.responseObject.actionId], [200, actionId]);
    t.is((await poll(gateway, merchant.liveKey, attempt.order.id, actionId)).status, 200);
  });
});

test('a txId is part of the request the key stands for', async (t) => {
  await withGateway(async (gateway) => {
    const merchant = await proMerchant(gateway);
    const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    // This node has no attestation service: the fulfil is refused, and no key is spent on it.
    const refused = await gateway.request('POST', attempt.path('fulfill-sar'), { key: merchant.liveKey, body: { idempotencyKey: 'fulfil-key-1', txId: 'a' } });
    t.deepEqual([refused.status, refused.body.responseObject], [422, { code: 'PAYMENT_NOT_ELIGIBLE', reason: 'SAR_DISABLED' }]);
    const extend = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body: { idempotencyKey: 'fulfil-key-1' } });
    t.is(extend.status, 202);
    const withTx = await gateway.request('POST', attempt.path('fulfill-sar'), { key: merchant.liveKey, body: { idempotencyKey: 'fulfil-key-1', txId: 'a' } });
    t.is(withTx.status, 422);
    t.is(withTx.body.errorCode, 'IDEMPOTENCY_KEY_MISMATCH');
  });
});

test('who may ask: a sandbox key is refused, an account without a plan is denied, and eligibility answers its reason', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    const attempt = await liveAttempt(gateway, merchant, 'SIGNALLING');
    const sandbox = await gateway.request('POST', attempt.path('extend'), { key: merchant.sandboxKey });
    t.deepEqual([sandbox.status, sandbox.body.responseObject], [403, { code: 'SANDBOX_NOT_SUPPORTED' }]);

    const noIntent = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey });
    t.deepEqual([noIntent.status, noIntent.body.responseObject], [422, { code: 'PAYMENT_NOT_ELIGIBLE', reason: 'INTENT_HASH_MISSING' }]);
    const notEnded = await gateway.request('POST', attempt.path('recreate'), { key: merchant.liveKey });
    t.deepEqual(notEnded.body.responseObject, { code: 'PAYMENT_NOT_ELIGIBLE', reason: 'PAYMENT_STATUS_NOT_ELIGIBLE' });

    await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { tier: null });
    const denied = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey });
    t.deepEqual([denied.status, denied.body.responseObject], [403, { code: 'ACTION_DENIED' }]);
    t.is(await gateway.node.system.views(actionKind).count({}), 0, 'no refusal created an action');
  });
});

test('recreate is refused while another attempt of the order is in progress', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    const cancelled = await liveAttempt(gateway, merchant, 'CANCELLED');
    await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT', {}, cancelled.order);
    const refused = await gateway.request('POST', cancelled.path('recreate'), { key: merchant.liveKey });
    t.deepEqual([refused.status, refused.body.responseObject], [422, { code: 'PAYMENT_NOT_ELIGIBLE', reason: 'ORDER_STATUS_NOT_ELIGIBLE' }]);
  });
});

test('404: another merchant’s order, a payment not on the order, an action polled through another order', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    const stranger = await gateway.createMerchant();
    t.is((await gateway.request('POST', attempt.path('extend'), { key: stranger.liveKey })).status, 404);
    const otherOrder = await placeOrder(gateway, merchant.liveKey);
    const wrongOrder = `/api/v1/merchants/me/orders/${otherOrder.id}/payments/${attempt.paymentId}/extend`;
    t.is((await gateway.request('POST', wrongOrder, { key: merchant.liveKey })).status, 404);

    const { actionId } = (await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey })).body.responseObject;
    t.is((await poll(gateway, merchant.liveKey, otherOrder.id, actionId)).status, 404);
    t.is((await poll(gateway, stranger.liveKey, attempt.order.id, actionId)).status, 404);
    t.is((await poll(gateway, merchant.liveKey, attempt.order.id, 'act_000000000000000000000000')).status, 404);
  });
});

test('validation: key and txId lengths, unknown fields', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    for (const [path, body, field] of [
      [attempt.path('extend'), { idempotencyKey: 'short' }, 'idempotencyKey'],
      [attempt.path('extend'), { idempotencyKey: 'k'.repeat(201) }, 'idempotencyKey'],
      [attempt.path('fulfill-sar'), {}, 'txId'],
      [attempt.path('fulfill-sar'), { txId: '' }, 'txId'],
      [attempt.path('fulfill-sar'), { txId: 't'.repeat(257) }, 'txId'],
    ] as const) {
      const refused = await gateway.request('POST', path, { key: merchant.liveKey, body });
      t.is(refused.status, 400, JSON.stringify(body));
      t.truthy(refused.body.responseObject.fieldErrors[field], JSON.stringify(body));
    }
    const unknown = await gateway.request('POST', attempt.path('recreate'), { key: merchant.liveKey, body: { txId: '1' } });
    t.is(unknown.status, 400);
  });
});

test('switches: actions off answer 503 FEATURE_DISABLED; extensions off refuse extend only', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { remediationExtensionsEnabled: false });
    const extend = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey });
    t.deepEqual([extend.status, extend.body.responseObject], [503, { code: 'FEATURE_DISABLED' }]);
    t.is((await gateway.request('POST', attempt.path('recreate'), { key: merchant.liveKey })).status, 422, 'recreate is still judged');
    await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { remediationActionsEnabled: false, remediationExtensionsEnabled: true });
    t.is((await gateway.request('POST', attempt.path('recreate'), { key: merchant.liveKey })).status, 503);
  });
  await withMerchant(
    async (gateway, merchant) => {
      const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
      t.is((await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey })).body.errorCode, 'FEATURE_DISABLED');
    },
    { REMEDIATION_EXTENSIONS_ENABLED: false },
  );
});

test('not approved within 15 minutes: BLOCKED with APPROVAL_EXPIRED, on the test clock', async (t) => {
  await withMerchant(async (gateway, merchant) => {
    const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    const { actionId } = (await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey })).body.responseObject;
    await advance(gateway, 15 * MINUTE - 1_000);
    t.is((await poll(gateway, merchant.liveKey, attempt.order.id, actionId)).body.responseObject.status, 'PENDING_APPROVAL');
    await advance(gateway, 1_000);
    const blocked = (await poll(gateway, merchant.liveKey, attempt.order.id, actionId)).body.responseObject;
    t.like(blocked, { status: 'BLOCKED', error: { code: 'APPROVAL_EXPIRED' } });
    t.is((await gateway.admin('POST', `/internal/v1/actions/${actionId}/approve`, { by: 'late@peer' })).status, 409);
  });
});

test('the support side not answering: 502 SUPPORT_UNAVAILABLE, nothing created, and the same key goes through once it answers', async (t) => {
  let answering = false;
  const asked: ApprovalRequest[] = [];
  const gateway = await startTestGateway(
    { SUPPORT_TIMEOUT_MS: 200 },
    {
      supportDesk: {
        requestApproval: (request) => {
          asked.push(request);
          return answering ? Promise.resolve() : new Promise(() => {});
        },
      },
    },
  );
  try {
    const merchant = await gateway.createMerchant();
    const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    const body = { idempotencyKey: 'support-retry-1' };
    const unanswered = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body });
    t.deepEqual([unanswered.status, unanswered.body.responseObject], [502, { code: 'SUPPORT_UNAVAILABLE' }]);
    t.is(await gateway.node.system.views(actionKind).count({}), 0);
    answering = true;
    const retried = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body });
    t.is(retried.status, 202);
    // Both asks named the same action: the desk sees one request, asked twice.
    t.is(asked.length, 2);
    t.is(asked[0]!.actionId, retried.body.responseObject.actionId);
    t.is(asked[1]!.actionId, retried.body.responseObject.actionId);
  } finally {
    await gateway.stop();
  }
});

test('limits: 30 actions a minute per merchant, and 120 reads shared by polls and the order’s payment list', async (t) => {
  await withGateway(async (gateway) => {
    const merchant = await proMerchant(gateway);
    const attempt = await liveAttempt(gateway, merchant, 'AWAITING_PAYMENT');
    const body = { idempotencyKey: 'limit-key-0001' };
    const first = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body });
    for (let i = 1; i < 30; i++) t.is((await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body })).status, 200);
    const limited = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body });
    t.is(limited.status, 429);
    t.is(limited.body.message, 'Too many requests');
    t.truthy(limited.headers.get('x-retry-after'));
    t.is(limited.headers.get('x-rate-limit-remaining'), '0');

    const { actionId } = first.body.responseObject;
    for (let i = 0; i < 60; i++) t.is((await poll(gateway, merchant.liveKey, attempt.order.id, actionId)).status, 200);
    const list = `/api/v1/merchants/me/orders/${attempt.order.id}/payments`;
    for (let i = 0; i < 60; i++) t.is((await gateway.request('GET', list, { key: merchant.liveKey })).status, 200);
    t.is((await poll(gateway, merchant.liveKey, attempt.order.id, actionId)).status, 429);
    t.is((await gateway.request('GET', list, { key: merchant.liveKey })).status, 429);
  });
});
