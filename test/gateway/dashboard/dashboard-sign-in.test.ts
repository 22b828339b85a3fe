/**
 * Signing in to the merchant dashboard over HTTP (docs/dashboard-auth.md): the e-mailed code,
 * the session cookie and its CSRF token, the answers that tell nobody who is on a team, the
 * code's single use, tries and expiry, and the session's idle and absolute ends on the test clock.
 */
import test from 'ava';
import { SIGN_IN_PER_CLIENT } from '../../../gateway/dashboard/dashboard-auth.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../../machines/dashboard-session/index.js';
import { cookieOf, dashboardWorld } from '../../support/dashboard.js';

const minutes = (n: number) => n * 60_000;

test('a team member signs in with the mailed code: an HttpOnly, SameSite=Strict cookie and a session with its CSRF token', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const asked = await world.gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email: 'Owner@Acme.example ' } });
  t.is(asked.status, 202);
  t.deepEqual(asked.body.responseObject, { codeExpiresInSeconds: 600 });
  t.is(world.mail.codes.length, 1);
  t.is(world.mail.codes[0]!.to, 'owner@acme.example');
  t.regex(world.mail.codes[0]!.code, /^\d{6}$/);

  const signedIn = await world.gateway.request('POST', '/api/v1/dashboard/sign-in', {
    body: { email: 'owner@acme.example', code: world.mail.codeFor('owner@acme.example') },
  });
  t.is(signedIn.status, 200);
  const [setCookie] = signedIn.headers.getSetCookie();
  t.regex(setCookie!, /^peer_dashboard_session=pds_[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Expires=/);
  // npm start is development, served over plain http: no Secure there (a production node's cookie is: see the cookie test).
  t.false(setCookie!.includes('Secure'));
  const session = signedIn.body.responseObject;
  const now = world.gateway.clock.now();
  t.like(session, {
    userId: business.ownerId,
    email: 'owner@acme.example',
    role: 'OWNER',
    merchantId: business.liveId,
    merchantName: 'Acme',
    environment: 'LIVE',
    accountId: business.liveId,
    signedInAt: new Date(now).toISOString(),
    idleExpiresAt: new Date(now + SESSION_IDLE_MS).toISOString(),
    expiresAt: new Date(now + SESSION_ABSOLUTE_MS).toISOString(),
  });
  t.regex(session.sessionId, /^dss_/);
  t.false(setCookie!.includes(session.sessionId), 'the session id is not the cookie');

  // The cookie opens the session; the read answers the same CSRF token.
  const read = await world.gateway.request('GET', '/api/v1/dashboard/session', { headers: { cookie: cookieOf(signedIn) } });
  t.is(read.status, 200);
  t.is(read.body.responseObject.csrfToken, session.csrfToken);
  // The first sign-in made the invited Owner ACTIVE.
  const profile = await world.gateway.request('GET', '/api/v1/merchants/me', { key: business.liveKey });
  t.like(profile.body.responseObject.merchantUsers[0], { userId: business.ownerId, status: 'ACTIVE', joinedAt: new Date(now).toISOString() });
  // The sandbox key reads the same team, kept on the live account.
  const sandboxProfile = await world.gateway.request('GET', '/api/v1/merchants/me', { key: business.sandboxKey });
  t.deepEqual(sandboxProfile.body.responseObject.merchantUsers, profile.body.responseObject.merchantUsers);
});

test('asking for a code answers alike for an address on no team, and mails nothing; both are rationed alike', async (t) => {
  const world = await dashboardWorld(t);
  await world.business();
  const member = await world.gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email: 'owner@acme.example' } });
  const stranger = await world.gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email: 'nobody@acme.example' } });
  t.deepEqual([stranger.status, stranger.body], [member.status, member.body]);
  t.deepEqual(
    world.mail.codes.map((message) => message.to),
    ['owner@acme.example'],
  );
  // The sixth request in 15 minutes is refused for either address at the same count.
  for (let i = 0; i < 4; i++) {
    for (const email of ['owner@acme.example', 'nobody@acme.example'])
      t.is((await world.gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email } })).status, 202);
  }
  for (const email of ['owner@acme.example', 'nobody@acme.example']) {
    const refused = await world.gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email } });
    t.is(refused.status, 429, email);
    t.is(refused.body.message, 'Too many requests');
    t.truthy(refused.headers.get('x-retry-after'));
  }
  // A sign-in with a made-up code answers the same for both: no code was sent to a stranger.
  const strangerSignIn = await world.gateway.request('POST', '/api/v1/dashboard/sign-in', { body: { email: 'nobody@acme.example', code: '123456' } });
  t.is(strangerSignIn.status, 401);
  t.is(strangerSignIn.body.errorCode, 'SIGN_IN_CODE_INVALID');
  t.deepEqual(strangerSignIn.body.responseObject, { reason: 'NO_CODE' });
});

test('a code is refused when wrong, dies after five wrong tries, works once, and expires after 10 minutes', async (t) => {
  const world = await dashboardWorld(t);
  await world.business();
  const email = 'owner@acme.example';
  const ask = () => world.gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email } });
  const signIn = (code: string) => world.gateway.request('POST', '/api/v1/dashboard/sign-in', { body: { email, code } });
  const wrong = (code: string) => (code === '000000' ? '000001' : '000000');

  await ask();
  let code = world.mail.codeFor(email);
  for (let i = 0; i < 5; i++) {
    const refused = await signIn(wrong(code));
    t.is(refused.status, 401);
    t.deepEqual([refused.body.errorCode, refused.body.responseObject], ['SIGN_IN_CODE_INVALID', { reason: 'WRONG_CODE' }]);
    t.deepEqual(refused.headers.getSetCookie(), []);
  }
  t.deepEqual((await signIn(code)).body.responseObject, { reason: 'TOO_MANY_TRIES' }, 'the right code no longer works');

  await ask();
  code = world.mail.codeFor(email);
  t.is((await signIn(code)).status, 200);
  t.deepEqual((await signIn(code)).body.responseObject, { reason: 'CODE_USED' });

  await ask();
  code = world.mail.codeFor(email);
  await world.gateway.clock.advance(minutes(10));
  t.deepEqual((await signIn(code)).body.responseObject, { reason: 'CODE_EXPIRED' });
});

test('a session ends after 30 idle minutes, however young, and after 12 hours, however busy', async (t) => {
  const world = await dashboardWorld(t);
  await world.business();
  const read = (cookie: string) => world.gateway.request('GET', '/api/v1/dashboard/session', { headers: { cookie } });

  const idle = await world.signIn('owner@acme.example');
  await world.gateway.clock.advance(minutes(29));
  t.is((await read(idle.cookie)).status, 200, 'used within 30 minutes');
  await world.gateway.clock.advance(minutes(29));
  t.is((await read(idle.cookie)).status, 200, 'each use moves the idle end');
  await world.gateway.clock.advance(minutes(30));
  const expired = await read(idle.cookie);
  t.is(expired.status, 401);
  t.is(expired.body.errorCode, 'SESSION_EXPIRED');

  const busy = await world.signIn('owner@acme.example');
  for (let elapsed = 0; elapsed < SESSION_ABSOLUTE_MS - minutes(20); elapsed += minutes(20)) {
    await world.gateway.clock.advance(minutes(20));
    t.is((await read(busy.cookie)).status, 200);
  }
  await world.gateway.clock.advance(minutes(20));
  t.is((await read(busy.cookie)).body.errorCode, 'SESSION_EXPIRED');
});

test('no cookie, a made-up cookie and a signed-out one are refused apart', async (t) => {
  const world = await dashboardWorld(t);
  await world.business();
  const missing = await world.gateway.request('GET', '/api/v1/dashboard/session');
  t.deepEqual([missing.status, missing.body.errorCode], [401, 'SESSION_REQUIRED']);
  for (const cookie of ['peer_dashboard_session=nonsense', `peer_dashboard_session=pds_${'A'.repeat(43)}`]) {
    const invalid = await world.gateway.request('GET', '/api/v1/dashboard/session', { headers: { cookie } });
    t.deepEqual([invalid.status, invalid.body.errorCode], [401, 'SESSION_INVALID'], cookie);
  }
  const session = await world.signIn('owner@acme.example');
  const out = await world.call(session, 'POST', '/api/v1/dashboard/sign-out');
  t.is(out.status, 200);
  t.regex(out.headers.getSetCookie()[0]!, /^peer_dashboard_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0$/);
  const after = await world.call(session, 'GET', '/api/v1/dashboard/session');
  t.deepEqual([after.status, after.body.errorCode], [401, 'SESSION_INVALID']);
});

test('one client address gets 30 code requests and sign-ins together in 15 minutes, whichever addresses they name', async (t) => {
  const world = await dashboardWorld(t);
  await world.business();
  for (let i = 0; i < SIGN_IN_PER_CLIENT - 1; i++) {
    t.is((await world.gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email: `guess${i}@acme.example` } })).status, 202);
  }
  t.is((await world.gateway.request('POST', '/api/v1/dashboard/sign-in', { body: { email: 'owner@acme.example', code: '123456' } })).status, 401);
  const refused = await world.gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email: 'owner@acme.example' } });
  t.deepEqual([refused.status, refused.body.message], [429, 'Too many requests']);
  t.deepEqual(world.mail.codes, [], 'the team’s address, asked for past the limit, was sent nothing');
  t.is((await world.gateway.request('POST', '/api/v1/dashboard/sign-in', { body: { email: 'owner@acme.example', code: '123456' } })).status, 429);
});
