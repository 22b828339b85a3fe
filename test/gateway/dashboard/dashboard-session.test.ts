/**
 * What a dashboard session may do over HTTP (docs/dashboard-auth.md): CSRF on every call that
 * changes something, roles (a cashier reads, an Owner runs the team), the environment switch,
 * sign-out and revoke-all, the team's rules (the last Owner stays), the session-only order
 * read and cancel, and the audit log.
 */
import test from 'ava';
import { placeOrder, recordEvents, startPayment } from '../../support/checkout.js';
import { dashboardWorld } from '../../support/dashboard.js';

test('a call that changes something without the CSRF token, or with a wrong one, is refused 403 and changes nothing', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const order = await placeOrder(world.gateway, business.liveKey);
  const teamBefore = (await world.call(owner, 'GET', '/api/v1/merchants/me/users')).body.responseObject;
  for (const [csrf, code] of [
    [null, 'CSRF_TOKEN_MISSING'],
    ['', 'CSRF_TOKEN_MISSING'],
    // The last character changed (to A, or to B when it was A already: the same token would pass).
    [`${owner.csrfToken.slice(0, -1)}${owner.csrfToken.endsWith('A') ? 'B' : 'A'}`, 'CSRF_TOKEN_INVALID'],
    ['not-the-token', 'CSRF_TOKEN_INVALID'],
  ] as const) {
    const invite = await world.call(owner, 'POST', '/api/v1/merchants/me/users', { body: { email: 'new@acme.example', role: 'MANAGER' }, csrf });
    t.deepEqual([invite.status, invite.body.errorCode], [403, code]);
    const cancel = await world.call(owner, 'POST', `/api/v1/merchants/me/orders/${order.id}/cancel`, { csrf });
    t.deepEqual([cancel.status, cancel.body.errorCode], [403, code]);
    const out = await world.call(owner, 'POST', '/api/v1/dashboard/sign-out', { csrf });
    t.deepEqual([out.status, out.body.errorCode], [403, code]);
  }
  // Another session's token is as wrong as any.
  const other = await world.signIn(business.ownerEmail);
  t.is((await world.call(owner, 'POST', '/api/v1/dashboard/sign-out', { csrf: other.csrfToken })).body.errorCode, 'CSRF_TOKEN_INVALID');
  t.deepEqual((await world.call(owner, 'GET', '/api/v1/merchants/me/users')).body.responseObject, teamBefore);
  t.is((await world.call(owner, 'GET', `/api/v1/merchants/me/orders/${order.id}`)).body.responseObject.order.status, 'CREATED');
  t.is((await world.call(owner, 'GET', '/api/v1/dashboard/session')).status, 200, 'still signed in');
  t.deepEqual(world.mail.invitations, []);
});

test('an Owner invites, re-roles and removes members; the last Owner stays; a removed member is signed out everywhere', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const invited = await world.call(owner, 'POST', '/api/v1/merchants/me/users', { body: { email: 'Manager@Acme.example', role: 'MANAGER' } });
  t.is(invited.status, 201);
  t.like(invited.body.responseObject, { email: 'manager@acme.example', role: 'MANAGER', status: 'INVITED', joinedAt: null });
  t.deepEqual(world.mail.invitations, [{ to: 'manager@acme.example', merchantName: 'Acme', role: 'MANAGER', invitedBy: business.ownerEmail }]);
  const duplicate = await world.call(owner, 'POST', '/api/v1/merchants/me/users', { body: { email: 'manager@acme.example', role: 'CASHIER' } });
  t.deepEqual([duplicate.status, duplicate.body.errorCode], [409, 'MEMBER_EXISTS']);

  const managerId = invited.body.responseObject.userId;
  const manager = await world.signIn('manager@acme.example');
  t.is(manager.signedIn.body.responseObject.role, 'MANAGER');
  // Only an Owner runs the team.
  const refused = await world.call(manager, 'POST', '/api/v1/merchants/me/users', { body: { email: 'x@acme.example', role: 'CASHIER' } });
  t.deepEqual([refused.status, refused.body.errorCode], [403, 'ROLE_NOT_ALLOWED']);
  t.deepEqual([(await world.call(manager, 'DELETE', `/api/v1/merchants/me/users/${business.ownerId}`)).body.errorCode], ['ROLE_NOT_ALLOWED']);

  // The last Owner can neither be demoted nor removed, even by themself.
  for (const [method, body] of [
    ['PATCH', { role: 'MANAGER' }],
    ['DELETE', undefined],
  ] as const) {
    const last = await world.call(owner, method, `/api/v1/merchants/me/users/${business.ownerId}`, body ? { body } : {});
    t.deepEqual([last.status, last.body.errorCode], [409, 'LAST_OWNER'], method);
  }
  // A role change applies to the member's open session at once.
  const promoted = await world.call(owner, 'PATCH', `/api/v1/merchants/me/users/${managerId}`, { body: { role: 'OWNER' } });
  t.like(promoted.body.responseObject, { role: 'OWNER', status: 'ACTIVE' });
  t.is((await world.call(manager, 'GET', '/api/v1/dashboard/session')).body.responseObject.role, 'OWNER');
  // With two Owners, one may go.
  const removed = await world.call(manager, 'DELETE', `/api/v1/merchants/me/users/${business.ownerId}`);
  t.is(removed.status, 200);
  t.like(removed.body.responseObject, { userId: business.ownerId, revokedSessions: 1 });
  const gone = await world.call(owner, 'GET', '/api/v1/dashboard/session');
  t.deepEqual([gone.status, gone.body.errorCode], [401, 'SESSION_INVALID']);
  const unknown = await world.call(manager, 'DELETE', `/api/v1/merchants/me/users/${business.ownerId}`);
  t.deepEqual([unknown.status, unknown.body.errorCode], [404, 'MEMBER_NOT_FOUND']);
  // A removed address is sent no code any more, and answered the same.
  const asked = await world.gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email: business.ownerEmail } });
  t.is(asked.status, 202);
  t.is(world.mail.codes.filter((message) => message.to === business.ownerEmail).length, 1);
});

test('revoke-all ends every session of the member and no one else’s; sign-out ends only its own', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const laptop = await world.signIn(business.ownerEmail);
  const phone = await world.signIn(business.ownerEmail);
  const spare = await world.signIn(business.ownerEmail);
  const manager = await world.member(laptop, 'manager@acme.example', 'MANAGER');

  t.is((await world.call(spare, 'POST', '/api/v1/dashboard/sign-out')).status, 200);
  t.is((await world.call(phone, 'GET', '/api/v1/dashboard/session')).status, 200, 'the other sessions go on');

  const revoked = await world.call(laptop, 'POST', '/api/v1/dashboard/sessions/revoke-all');
  t.is(revoked.status, 200);
  t.is(revoked.body.responseObject.revokedSessions, 2);
  for (const session of [laptop, phone]) t.is((await world.call(session, 'GET', '/api/v1/dashboard/session')).body.errorCode, 'SESSION_INVALID');
  t.is((await world.call(manager, 'GET', '/api/v1/dashboard/session')).status, 200, 'another member’s session goes on');
});

test('a session switches between the live account and its sandbox twin; the merchant guard follows it', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const live = await placeOrder(world.gateway, business.liveKey);
  const sandbox = await placeOrder(world.gateway, business.sandboxKey);
  const owner = await world.signIn(business.ownerEmail);
  t.is((await world.call(owner, 'GET', `/api/v1/merchants/me/orders/${live.id}`)).status, 200);
  t.is((await world.call(owner, 'GET', `/api/v1/merchants/me/orders/${sandbox.id}`)).body.errorCode, 'NOT_FOUND');

  const switched = await world.call(owner, 'POST', '/api/v1/dashboard/session/environment', { body: { environment: 'SANDBOX' } });
  t.is(switched.status, 200);
  t.like(switched.body.responseObject, { environment: 'SANDBOX', accountId: business.sandboxId, merchantId: business.liveId });
  t.is((await world.call(owner, 'GET', `/api/v1/merchants/me/orders/${sandbox.id}`)).status, 200);
  t.is((await world.call(owner, 'GET', `/api/v1/merchants/me/orders/${live.id}`)).status, 404);
  // The team is the business's, the same from the sandbox.
  t.is((await world.call(owner, 'GET', '/api/v1/merchants/me/users')).body.responseObject.users.length, 1);

  // A session may start in the sandbox too.
  const sandboxFirst = await world.signIn(business.ownerEmail, { environment: 'SANDBOX' });
  t.is(sandboxFirst.signedIn.body.responseObject.accountId, business.sandboxId);
});

test('the order read and cancel are for a session only; another merchant’s order is 404; a cashier may read but not cancel', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const other = await world.business('owner@other.example', 'Other');
  const theirs = await placeOrder(world.gateway, other.liveKey);
  const ours = await placeOrder(world.gateway, business.liveKey);
  const owner = await world.signIn(business.ownerEmail);
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');

  for (const [method, path] of [
    ['GET', `/api/v1/merchants/me/orders/${ours.id}`],
    ['POST', `/api/v1/merchants/me/orders/${ours.id}/cancel`],
  ] as const) {
    const keyed = await world.gateway.request(method, path, { key: business.liveKey });
    t.deepEqual([keyed.status, keyed.body.errorCode], [403, 'API_KEY_NOT_ALLOWED'], `${method} with the key`);
    const other = await world.call(owner, method, path.replace(ours.id, theirs.id));
    t.deepEqual([other.status, other.body.errorCode], [404, 'NOT_FOUND'], `${method} of another merchant’s order`);
  }
  t.is((await world.call(cashier, 'GET', `/api/v1/merchants/me/orders/${ours.id}`)).status, 200);
  const refused = await world.call(cashier, 'POST', `/api/v1/merchants/me/orders/${ours.id}/cancel`);
  t.deepEqual([refused.status, refused.body.errorCode], [403, 'ROLE_NOT_ALLOWED']);
  t.is((await world.call(owner, 'GET', `/api/v1/merchants/me/orders/${ours.id}`)).body.responseObject.order.status, 'CREATED');
  t.is((await world.call(owner, 'GET', `/api/v1/merchants/me/orders/${theirs.id}`)).status, 404);
});

test('a manager cancels an order with an open attempt: the attempt is cancelled, ORDER_CANCELLED once; a second cancel is 409', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const order = await placeOrder(world.gateway, business.sandboxKey);
  const attempt = await startPayment(order);
  await world.gateway.node.system.effectsIdle();
  const owner = await world.signIn(business.ownerEmail, { environment: 'SANDBOX' });
  const manager = await world.member(owner, 'manager@acme.example', 'MANAGER');
  await world.call(manager, 'POST', '/api/v1/dashboard/session/environment', { body: { environment: 'SANDBOX' } });
  const events = await recordEvents(world.gateway);

  const cancelled = await world.call(manager, 'POST', `/api/v1/merchants/me/orders/${order.id}/cancel`);
  t.is(cancelled.status, 200);
  const { order: after, payments } = cancelled.body.responseObject;
  t.like(after, { id: order.id, status: 'CANCELLED', cancelledAt: new Date(world.gateway.clock.now()).toISOString() });
  t.deepEqual(
    payments.map((payment: { id: string; status: string }) => [payment.id, payment.status]),
    [[attempt.id, 'CANCELLED']],
  );
  const again = await world.call(manager, 'POST', `/api/v1/merchants/me/orders/${order.id}/cancel`);
  t.deepEqual([again.status, again.body.errorCode], [409, 'ORDER_STATUS_NOT_ELIGIBLE']);
  const types = await events.typesOf(order.id, attempt.id);
  t.is(types.filter((type) => type === 'ORDER_CANCELLED').length, 1);
  t.is(types.filter((type) => type === 'PAYMENT_CANCELLED').length, 1);
  // The customer can start no new attempt on the cancelled order.
  t.not((await order.customer('POST', '/payments', { rail: 'venmo' })).status, 201);
});

test('a fulfilled order cannot be cancelled', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const order = await placeOrder(world.gateway, business.sandboxKey);
  const attempt = await startPayment(order);
  await order.customer('POST', `/payments/${attempt.id}/simulate`);
  await world.gateway.node.system.effectsIdle();
  const owner = await world.signIn(business.ownerEmail, { environment: 'SANDBOX' });
  const refused = await world.call(owner, 'POST', `/api/v1/merchants/me/orders/${order.id}/cancel`);
  t.deepEqual([refused.status, refused.body.errorCode], [409, 'ORDER_STATUS_NOT_ELIGIBLE']);
  t.is((await world.call(owner, 'GET', `/api/v1/merchants/me/orders/${order.id}`)).body.responseObject.order.status, 'FULFILLED');
});

test('the audit log records sign-ins, changes, reads and sign-outs, newest first, and only an Owner reads it', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const order = await placeOrder(world.gateway, business.liveKey);
  // A refused sign-in of a team address is recorded too.
  await world.gateway.request('POST', '/api/v1/dashboard/sign-in', { body: { email: business.ownerEmail, code: '000000' } });
  const owner = await world.signIn(business.ownerEmail);
  const manager = await world.member(owner, 'manager@acme.example', 'MANAGER');
  await world.call(manager, 'POST', `/api/v1/merchants/me/orders/${order.id}/cancel`);
  await world.call(manager, 'POST', '/api/v1/dashboard/sign-out');

  const refused = await world.call(await world.signIn('manager@acme.example'), 'GET', '/api/v1/merchants/me/audit-log');
  t.deepEqual([refused.status, refused.body.errorCode], [403, 'ROLE_NOT_ALLOWED']);
  const keyed = await world.gateway.request('GET', '/api/v1/merchants/me/audit-log', { key: business.liveKey });
  t.is(keyed.body.errorCode, 'API_KEY_NOT_ALLOWED');

  const log = await world.call(owner, 'GET', '/api/v1/merchants/me/audit-log?limit=100');
  t.is(log.status, 200);
  const entries = log.body.responseObject.entries as any[];
  t.deepEqual(entries.map((entry) => [entry.operationId, entry.actor.email, entry.status]).reverse(), [
    ['signInDashboard', business.ownerEmail, 401],
    ['signInDashboard', business.ownerEmail, 200],
    ['inviteTeamMember', business.ownerEmail, 201],
    ['signInDashboard', 'manager@acme.example', 200],
    ['cancelMerchantOrder', 'manager@acme.example', 200],
    ['signOutDashboard', 'manager@acme.example', 200],
    ['signInDashboard', 'manager@acme.example', 200],
    // Reads are calls too: the manager's refused read of the log is in it (an API key's, refused by the guard, is not).
    ['listAuditLog', 'manager@acme.example', 403],
  ]);
  const cancel = entries.find((entry) => entry.operationId === 'cancelMerchantOrder');
  t.like(cancel, { merchantId: business.liveId, environment: 'LIVE', targets: { orderId: order.id }, clientIp: '127.0.0.1' });
  t.like(cancel.actor, { kind: 'session', userId: manager.userId, sessionId: manager.sessionId });
  t.deepEqual(entries.find((entry) => entry.operationId === 'inviteTeamMember').targets, { userId: manager.userId });
  t.like(log.body.responseObject, { total: 8, page: 1, limit: 100 });
  const paged = await world.call(owner, 'GET', '/api/v1/merchants/me/audit-log?page=2&limit=5');
  t.deepEqual(
    paged.body.responseObject.entries.map((entry: { id: string }) => entry.id),
    // The Owner's read of the log above is the newest entry by now, so page 2 starts one earlier.
    entries.slice(4, 9).map((entry) => entry.id),
  );
  // Another business's log is its own.
  const other = await world.business('owner@other.example', 'Other');
  const otherOwner = await world.signIn(other.ownerEmail);
  const otherLog = await world.call(otherOwner, 'GET', '/api/v1/merchants/me/audit-log');
  t.deepEqual(
    otherLog.body.responseObject.entries.map((entry: { operationId: string }) => entry.operationId),
    ['signInDashboard'],
  );
  t.false(
    otherLog.body.responseObject.entries.some((entry: { operationId: string }) => entry.operationId === 'listAuditLog'),
    'the first business’s reads are its own',
  );
});
