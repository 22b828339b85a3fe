/**
 * A payout customer's login token: a JWT (HS256, jose) under the node's sign-in key
 * (kept-keys.ts), its subject the customer's account at the wallet provider, so one sign-in
 * speaks for that customer on every payout of theirs and on no one else's. `kid` is the
 * key's version: a token of any other version is not verified.
 */
import { errors, jwtVerify, SignJWT } from 'jose';
import type { KeptKeys } from './kept-keys.js';

const PURPOSE = 'cashout-login';
const ISSUER = 'peer-cashout';
/** How long a sign-in lasts: long enough to choose a method and wait for a buyer. */
export const LOGIN_TTL_SECONDS = 2 * 60 * 60;

export interface LoginClaims {
  /** The wallet provider's user id of the customer. */
  account: string;
  /** The payout the customer signed in through. */
  payoutId: string;
  expiresAt: string;
}

export class LoginTokens {
  constructor(
    private readonly keys: KeptKeys,
    private readonly now: () => number,
  ) {}

  async issue(account: string, payoutId: string): Promise<{ token: string; expiresAt: string }> {
    const key = await this.keys.current(PURPOSE);
    const issuedAt = Math.floor(this.now() / 1000);
    const expires = issuedAt + LOGIN_TTL_SECONDS;
    const token = await new SignJWT({ pid: payoutId })
      .setProtectedHeader({ alg: 'HS256', kid: String(key.version) })
      .setIssuer(ISSUER)
      .setSubject(account)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expires)
      .sign(key.secret);
    return { token, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /** The claims of a token this node's current key signed and that has not expired; null for anything else. */
  async verify(token: string): Promise<LoginClaims | null> {
    const key = await this.keys.current(PURPOSE);
    try {
      const { payload, protectedHeader } = await jwtVerify(token, key.secret, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        currentDate: new Date(this.now()),
      });
      if (protectedHeader.kid !== String(key.version) || typeof payload.sub !== 'string' || typeof payload.pid !== 'string' || !payload.exp) return null;
      return { account: payload.sub, payoutId: payload.pid, expiresAt: new Date(payload.exp * 1000).toISOString() };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
