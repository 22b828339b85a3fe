/**
 * Sign-in nonces that need no storage until they are used: a nonce carries its own
 * expiry and a MAC over it, keyed by a secret the nodes share (ID_SECRET), so any node
 * can tell a nonce it issued from a made-up one, and an expired one from a live one,
 * without a write per nonce asked for. Single use is the session actor's: its id is the
 * nonce, and the sign-in is what creates it (machines/maker-session).
 *
 * Layout, all [0-9a-z] as EIP-4361 requires of a nonce (and an actor id allows):
 * 10 base-36 digits of the expiry in ms, 32 hex digits of randomness, 32 hex digits of
 * HMAC-SHA256 over the first two parts.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const EXPIRY_DIGITS = 10;
const NONCE = /^([0-9a-z]{10})([0-9a-f]{32})([0-9a-f]{32})$/;

export type NonceCheck = { ok: true } | { ok: false; reason: 'unknown' | 'expired' };

export class SignInNonces {
  readonly #key: Buffer;

  constructor(secret: string) {
    // A key of its own, so that no MAC made here is ever an id derived elsewhere from the same secret.
    this.#key = createHmac('sha256', secret).update('peer maker sign-in nonce v1').digest();
  }

  issue(expiresAt: number): string {
    const body = expiresAt.toString(36).padStart(EXPIRY_DIGITS, '0') + randomBytes(16).toString('hex');
    return body + this.#mac(body).toString('hex');
  }

  check(nonce: string, now: number): NonceCheck {
    const parts = NONCE.exec(nonce);
    if (!parts || !timingSafeEqual(Buffer.from(parts[3]!, 'hex'), this.#mac(parts[1]! + parts[2]!))) return { ok: false, reason: 'unknown' };
    return parseInt(parts[1]!, 36) > now ? { ok: true } : { ok: false, reason: 'expired' };
  }

  #mac(body: string): Buffer {
    return createHmac('sha256', this.#key).update(body).digest().subarray(0, 16);
  }
}
