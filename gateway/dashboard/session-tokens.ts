/**
 * The dashboard session's secrets (docs/dashboard-auth.md). The cookie holds `pds_` and 32
 * random bytes; the store holds only its SHA-256, and the session actor's id is derived from
 * it, so a session is found by the cookie without an index and without the cookie being
 * kept. The CSRF token is an HMAC of the session's id under a key of the node's ID_SECRET:
 * nothing to store, the same on every read of the session, worthless for any other session.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { derivedId } from '../ids.js';

export const SESSION_COOKIE = 'peer_dashboard_session';
export const CSRF_HEADER = 'x-csrf-token';

const TOKEN = /^pds_[A-Za-z0-9_-]{43}$/;

export function generateSessionToken(): string {
  return `pds_${randomBytes(32).toString('base64url')}`;
}

export function looksLikeSessionToken(value: string): boolean {
  return TOKEN.test(value);
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The session actor's id: one-way from the cookie, so the id (which logs and the audit log show) opens nothing. */
export function sessionIdOf(token: string): string {
  return derivedId('dss', 'peer dashboard session id v1', token);
}

export class CsrfTokens {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = createHmac('sha256', secret).update('peer dashboard csrf v1').digest();
  }

  of(sessionId: string): string {
    return createHmac('sha256', this.#key).update(sessionId).digest('base64url');
  }

  matches(sessionId: string, sent: string): boolean {
    const expected = Buffer.from(this.of(sessionId));
    const given = Buffer.from(sent);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/**
 * The Set-Cookie value: never readable by page scripts, never sent with another site's request,
 * over TLS outside development, for every path. Written here rather than through Koa's cookies,
 * which refuse a Secure cookie on a connection they do not see as TLS (behind a proxy that ends it).
 * `expires` null clears the cookie.
 */
export function sessionCookie(token: string, options: { secure: boolean; expires: Date | null }): string {
  const attributes = [`${SESSION_COOKIE}=${options.expires ? token : ''}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  if (options.secure) attributes.push('Secure');
  attributes.push(options.expires ? `Expires=${options.expires.toUTCString()}` : 'Max-Age=0');
  return attributes.join('; ');
}
