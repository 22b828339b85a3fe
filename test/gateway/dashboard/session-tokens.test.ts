/** The session cookie's attributes and the CSRF tokens (gateway/dashboard/session-tokens.ts). */
import test from 'ava';
import { CsrfTokens, generateSessionToken, looksLikeSessionToken, sessionCookie, sessionIdOf } from '../../../gateway/dashboard/session-tokens.js';

test('the cookie is HttpOnly, SameSite=Strict and for every path; Secure outside development; cleared with Max-Age=0', (t) => {
  const token = generateSessionToken();
  const expires = new Date(Date.UTC(2026, 10, 24, 0));
  t.is(
    sessionCookie(token, { secure: true, expires }),
    `peer_dashboard_session=${token}; Path=/; HttpOnly; SameSite=Strict; Secure; Expires=Tue, 24 Nov 2026 00:00:00 GMT`,
  );
  t.is(
    sessionCookie(token, { secure: false, expires }),
    `peer_dashboard_session=${token}; Path=/; HttpOnly; SameSite=Strict; Expires=Tue, 24 Nov 2026 00:00:00 GMT`,
  );
  t.is(sessionCookie(token, { secure: true, expires: null }), 'peer_dashboard_session=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0');
});

test('tokens are fresh, well-formed and name a session id that is not the token', (t) => {
  const tokens = new Set(Array.from({ length: 100 }, generateSessionToken));
  t.is(tokens.size, 100);
  for (const token of tokens) t.true(looksLikeSessionToken(token));
  const [token] = tokens;
  t.regex(sessionIdOf(token!), /^dss_[0-9A-Za-z]{24}$/);
  t.is(sessionIdOf(token!), sessionIdOf(token!));
  t.false(looksLikeSessionToken(`${token}x`));
});

test('a CSRF token is the session’s under the node’s secret, and no other session’s', (t) => {
  const csrf = new CsrfTokens('a'.repeat(32));
  const token = csrf.of('dss_one');
  t.true(csrf.matches('dss_one', token));
  t.false(csrf.matches('dss_two', token));
  t.false(csrf.matches('dss_one', token.slice(1)));
  t.false(new CsrfTokens('b'.repeat(32)).matches('dss_one', token));
});
