/**
 * Paying a dispute from the dashboard: money the merchant owes is recorded by an Owner or a
 * Manager (docs/dashboard-auth.md), audited; a cashier reads disputes but records no payment.
 */
import test from 'ava';
import { answerOf } from '../../support/checkout.js';
import { dashboardWorld } from '../../support/dashboard.js';

const TX = `0x${'ab'.repeat(32)}`;

test('a cashier reads a dispute but may not record its payment; a manager records it, and the audit log names them', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const manager = await world.member(owner, 'manager@acme.example', 'MANAGER');
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');
  for (const session of [manager, cashier])
    answerOf(await world.call(session, 'POST', '/api/v1/dashboard/session/environment', { body: { environment: 'SANDBOX' } }), 200, 'to the sandbox');
  const { payment } = answerOf(await world.gateway.request('POST', '/api/v1/sandbox/test-order', { key: business.sandboxKey, body: {} }), 201, 'settled');
  const dispute = answerOf(
    await world.gateway.request('POST', '/api/v1/merchants/me/disputes/simulate', { key: business.sandboxKey, body: { paymentId: payment.id } }),
    201,
    'dispute',
  );
  const path = `/api/v1/merchants/me/disputes/${dispute.id}`;

  t.like(answerOf(await world.call(cashier, 'GET', path), 200, 'a cashier reads it'), { status: 'OPEN' });
  const refused = await world.call(cashier, 'POST', `${path}/payment`, { body: { txHash: TX } });
  t.is(refused.status, 403);
  t.is(refused.body.errorCode, 'ROLE_NOT_ALLOWED');
  t.like(answerOf(await world.call(cashier, 'GET', path), 200, 'unchanged'), { status: 'OPEN', paidTxHash: null });

  t.like(answerOf(await world.call(manager, 'POST', `${path}/payment`, { body: { txHash: TX } }), 200, 'a manager records it'), { status: 'PAID' });
  const audit = answerOf(await world.call(owner, 'GET', '/api/v1/merchants/me/audit-log'), 200, 'audit');
  t.deepEqual(
    audit.entries.filter((entry: { operationId: string }) => entry.operationId === 'payDispute').map((entry: { status: number }) => entry.status),
    [200, 403],
    'both, newest first',
  );
});
