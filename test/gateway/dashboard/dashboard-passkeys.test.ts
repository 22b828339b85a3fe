/**
 * Passkey sign-in (docs/dashboard-auth.md) over HTTP, with a software authenticator whose
 * responses are built and signed in the test: a member registers a passkey, lists it and signs in
 * with it for the same session a code gives; a made-up, replayed or stale challenge, a counter
 * that goes backwards, a credential nobody registered, a forged signature and a removed passkey
 * are each refused with their reason.
 */
import { generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import { PASSKEY_CHALLENGE_TTL_MS } from '../../../gateway/dashboard/passkeys.js';
import { type DashboardSession, type DashboardWorld, cookieOf, dashboardWorld } from '../../support/dashboard.js';
import { SoftAuthenticator } from '../../support/soft-authenticator.js';

const MINE = '/api/v1/dashboard/passkeys';
const SIGN_IN = '/api/v1/dashboard/sign-in/passkey';

/** The origin the page is served at, as the node gives it to the relying party: its address, at localhost. */
function originOf(world: DashboardWorld): string {
  return world.gateway.url.replace('://127.0.0.1:', '://localhost:');
}

async function register(world: DashboardWorld, session: DashboardSession, authenticator: SoftAuthenticator, name?: string) {
  const options = await world.call(session, 'POST', `${MINE}/registration-options`);
  if (options.status !== 200) throw new Error(`registration options: ${JSON.stringify(options.body)}`);
  return world.call(session, 'POST', MINE, { body: { response: authenticator.register(options.body.responseObject), ...(name ? { name } : {}) } });
}

async function signInOptions(world: DashboardWorld) {
  const options = await world.gateway.request('POST', `${SIGN_IN}/options`);
  if (options.status !== 200) throw new Error(`sign-in options: ${JSON.stringify(options.body)}`);
  return options.body.responseObject as { challenge: string; rpId: string };
}

function signInWith(world: DashboardWorld, response: unknown, body: Record<string, unknown> = {}) {
  return world.gateway.request('POST', SIGN_IN, { body: { response, ...body } });
}

test('a member registers a passkey, lists it and signs in with it: the same session, cookie and CSRF as a code, recorded in the audit log', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const authenticator = new SoftAuthenticator(originOf(world));

  const options = await world.call(owner, 'POST', `${MINE}/registration-options`);
  t.is(options.status, 200);
  t.is(options.body.responseObject.rp.id, 'localhost', 'the relying party is the node’s host');
  t.is(options.body.responseObject.user.name, business.ownerEmail);
  const registered = await world.call(owner, 'POST', MINE, { body: { response: authenticator.register(options.body.responseObject), name: 'work laptop' } });
  t.is(registered.status, 201, JSON.stringify(registered.body));
  t.like(registered.body.responseObject, { passkeyId: authenticator.credentialId, name: 'work laptop', transports: ['internal'], lastUsedAt: null });

  const listed = await world.call(owner, 'GET', MINE);
  t.deepEqual(
    listed.body.responseObject.passkeys.map((passkey: { passkeyId: string }) => passkey.passkeyId),
    [authenticator.credentialId],
  );
  const profile = await world.gateway.request('GET', '/api/v1/merchants/me', { key: business.liveKey });
  t.false(JSON.stringify(profile.body).includes(authenticator.credentialId), 'the profile’s team shows no passkey');

  const signedIn = await signInWith(world, authenticator.assert(await signInOptions(world)), { environment: 'SANDBOX' });
  t.is(signedIn.status, 200, JSON.stringify(signedIn.body));
  t.like(signedIn.body.responseObject, {
    userId: business.ownerId,
    email: business.ownerEmail,
    role: 'OWNER',
    environment: 'SANDBOX',
    accountId: business.sandboxId,
  });
  const cookieLine = signedIn.headers.getSetCookie().find((line) => line.startsWith('peer_dashboard_session='))!;
  t.regex(cookieLine, /HttpOnly/);
  t.regex(cookieLine, /SameSite=Strict/);
  const session: DashboardSession = {
    cookie: cookieOf(signedIn),
    csrfToken: signedIn.body.responseObject.csrfToken,
    sessionId: signedIn.body.responseObject.sessionId,
    signedIn,
  };
  t.is((await world.call(session, 'GET', '/api/v1/dashboard/session')).status, 200, 'the cookie opens the session');
  const noCsrf = await world.call(session, 'POST', '/api/v1/dashboard/session/environment', { body: { environment: 'LIVE' }, csrf: null });
  t.is(noCsrf.body.errorCode, 'CSRF_TOKEN_MISSING', 'a passkey session needs its CSRF token as a code’s does');
  t.is((await world.call(session, 'POST', '/api/v1/dashboard/session/environment', { body: { environment: 'LIVE' } })).status, 200);

  const used = await world.call(session, 'GET', MINE);
  t.truthy(used.body.responseObject.passkeys[0].lastUsedAt, 'the sign-in is noted on the passkey');

  const audit = await world.call(session, 'GET', '/api/v1/merchants/me/audit-log');
  const operations = audit.body.responseObject.entries.map((entry: { operationId: string; status: number }) => `${entry.operationId} ${entry.status}`);
  t.true(operations.includes('signInDashboardWithPasskey 200'));
  t.true(operations.includes('registerDashboardPasskey 201'));
  const passkeySignIn = audit.body.responseObject.entries.find((entry: { operationId: string }) => entry.operationId === 'signInDashboardWithPasskey');
  t.like(passkeySignIn, { environment: 'SANDBOX', actor: { kind: 'session', userId: business.ownerId, sessionId: session.sessionId } });
});

test('refused: a challenge the node never gave, a replayed one, a stale one, a credential nobody registered, a forged signature, a counter going backwards, a removed passkey', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const authenticator = new SoftAuthenticator(originOf(world));
  t.is((await register(world, owner, authenticator)).status, 201);
  const reasonOf = (response: Awaited<ReturnType<typeof signInWith>>) =>
    `${response.status} ${response.body.errorCode} ${response.body.responseObject?.reason}`;

  const options = await signInOptions(world);
  t.is(
    reasonOf(await signInWith(world, authenticator.assert(options, { challenge: 'bm90LWEtY2hhbGxlbmdlLXRoZS1ub2RlLWdhdmU' }))),
    '401 PASSKEY_SIGN_IN_INVALID CHALLENGE_INVALID',
  );

  const answer = authenticator.assert(await signInOptions(world));
  t.is((await signInWith(world, answer)).status, 200);
  t.is(reasonOf(await signInWith(world, answer)), '401 PASSKEY_SIGN_IN_INVALID CHALLENGE_INVALID', 'a challenge serves once');

  const stale = await signInOptions(world);
  await world.gateway.clock.advance(PASSKEY_CHALLENGE_TTL_MS);
  t.is(reasonOf(await signInWith(world, authenticator.assert(stale))), '401 PASSKEY_SIGN_IN_INVALID CHALLENGE_EXPIRED');

  const stranger = new SoftAuthenticator(originOf(world));
  t.is(reasonOf(await signInWith(world, stranger.assert(await signInOptions(world)))), '401 PASSKEY_SIGN_IN_INVALID UNKNOWN_CREDENTIAL');

  const forger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  t.is(
    reasonOf(await signInWith(world, authenticator.assert(await signInOptions(world), { key: forger.privateKey }))),
    '401 PASSKEY_SIGN_IN_INVALID SIGNATURE_INVALID',
  );

  t.is((await signInWith(world, authenticator.assert(await signInOptions(world), { counter: 10 }))).status, 200);
  t.is(reasonOf(await signInWith(world, authenticator.assert(await signInOptions(world), { counter: 7 }))), '401 PASSKEY_SIGN_IN_INVALID COUNTER_REGRESSED');
  t.is(
    reasonOf(await signInWith(world, authenticator.assert(await signInOptions(world), { counter: 10 }))),
    '401 PASSKEY_SIGN_IN_INVALID COUNTER_REGRESSED',
    'nor standing still',
  );
  t.is((await signInWith(world, authenticator.assert(await signInOptions(world), { counter: 11 }))).status, 200);

  const removed = await world.call(owner, 'DELETE', `${MINE}/${authenticator.credentialId}`);
  t.is(removed.status, 200);
  t.deepEqual((await world.call(owner, 'GET', MINE)).body.responseObject.passkeys, []);
  t.is(reasonOf(await signInWith(world, authenticator.assert(await signInOptions(world)))), '401 PASSKEY_SIGN_IN_INVALID UNKNOWN_CREDENTIAL');
  const again = await world.call(owner, 'DELETE', `${MINE}/${authenticator.credentialId}`);
  t.is(`${again.status} ${again.body.errorCode}`, '404 PASSKEY_NOT_FOUND');
});

test('registration refuses a replayed or another member’s challenge, a stale one and a passkey registered already; another member cannot remove it', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');
  const authenticator = new SoftAuthenticator(originOf(world));
  const reasonOf = (response: Awaited<ReturnType<DashboardWorld['call']>>) =>
    `${response.status} ${response.body.errorCode} ${response.body.responseObject?.reason ?? ''}`.trim();

  const options = (await world.call(owner, 'POST', `${MINE}/registration-options`)).body.responseObject;
  const response = authenticator.register(options);
  t.is(
    reasonOf(await world.call(cashier, 'POST', MINE, { body: { response } })),
    '422 PASSKEY_REGISTRATION_INVALID CHALLENGE_INVALID',
    'the owner’s challenge is not the cashier’s',
  );
  t.is((await world.call(owner, 'POST', MINE, { body: { response } })).status, 201, 'the member it was given to still answers it');
  t.is(
    reasonOf(await world.call(owner, 'POST', MINE, { body: { response } })),
    '422 PASSKEY_REGISTRATION_INVALID CHALLENGE_INVALID',
    'a challenge serves once',
  );
  t.is(reasonOf(await register(world, owner, authenticator)), '409 PASSKEY_EXISTS');

  const stale = (await world.call(owner, 'POST', `${MINE}/registration-options`)).body.responseObject;
  await world.gateway.clock.advance(PASSKEY_CHALLENGE_TTL_MS + 1);
  const fresh = await world.signIn(business.ownerEmail);
  t.is(
    reasonOf(await world.call(fresh, 'POST', MINE, { body: { response: new SoftAuthenticator(originOf(world)).register(stale) } })),
    '422 PASSKEY_REGISTRATION_INVALID CHALLENGE_EXPIRED',
  );

  const cashierNow = await world.signIn('cashier@acme.example');
  t.is(reasonOf(await world.call(cashierNow, 'DELETE', `${MINE}/${authenticator.credentialId}`)), '404 PASSKEY_NOT_FOUND', 'only its member removes a passkey');
  t.deepEqual((await world.call(cashierNow, 'GET', MINE)).body.responseObject.passkeys, []);
});

test('passkey sign-in shares the client address’s sign-in budget with the code', async (t) => {
  const world = await dashboardWorld(t, { RATE_LIMIT_PER_MINUTE: 1_000_000 });
  for (let i = 0; i < 30; i++) t.is((await world.gateway.request('POST', `${SIGN_IN}/options`)).status, 200);
  const refused = await world.gateway.request('POST', `${SIGN_IN}/options`);
  t.is(refused.status, 429);
  t.truthy(refused.headers.get('x-retry-after'));
  t.is((await world.gateway.request('POST', '/api/v1/dashboard/sign-in', { body: { email: 'a@b.example', code: '123456' } })).status, 429);
});
