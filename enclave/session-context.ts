/**
 * The enclave's check of what sealed session material may be used for (the use itself,
 * which clients write, is proto/attestation/session-use.ts). The enclave refuses the
 * material for any other use: a buyer's cookie sealed to prove a payment for one intent
 * therefore cannot register an identity, prove another intent, or be replayed once it has expired.
 */
import { isAddressEqual, type Address } from 'viem';
import { SESSION_CONTEXT_HEADER, type SessionUse } from '../proto/attestation/session-use.js';
import { AttestationError } from './errors.js';

export { SESSION_CONTEXT_HEADER, type SessionContext, type SessionPurpose, type SessionUse } from '../proto/attestation/session-use.js';

/** The longest a sealed material may live: a checkout's payment window, not a stored credential. */
export const MAX_SESSION_LIFETIME_SECONDS = 3_600;

/** Throws unless `header` binds the material to exactly `expected`, unexpired at `nowMs`. */
export function checkSessionContext(header: unknown, expected: SessionUse, nowMs: number): void {
  if (header === null || typeof header !== 'object') {
    throw new AttestationError(
      'SESSION_CONTEXT_MISSING',
      400,
      `the sealed material carries no "${SESSION_CONTEXT_HEADER}" protected header naming its purpose, platform, binding and expiry`,
    );
  }
  const context = header as Partial<Record<string, unknown>>;
  const expiresAt = context.expiresAt;
  if (typeof expiresAt !== 'number' || !Number.isInteger(expiresAt)) {
    throw new AttestationError('SESSION_CONTEXT_MISSING', 400, 'the sealed material names no expiry (expiresAt, Unix seconds)');
  }
  const now = Math.floor(nowMs / 1000);
  if (expiresAt <= now) throw new AttestationError('SESSION_MATERIAL_EXPIRED', 400, 'the sealed material has expired: seal the session again');
  if (expiresAt > now + MAX_SESSION_LIFETIME_SECONDS) {
    throw new AttestationError('SESSION_CONTEXT_MISMATCH', 400, `the sealed material may live at most ${MAX_SESSION_LIFETIME_SECONDS} seconds`);
  }
  const mismatch = (what: string) => new AttestationError('SESSION_CONTEXT_MISMATCH', 400, `the material was sealed for another ${what}`);
  if (context.purpose !== expected.purpose) throw mismatch('purpose');
  if (context.platform !== expected.platform) throw mismatch('platform');
  if ('callerAddress' in expected) {
    if (typeof context.callerAddress !== 'string' || !isAddressEqual(context.callerAddress as Address, expected.callerAddress)) throw mismatch('caller');
    return;
  }
  if (context.chainId !== expected.chainId) throw mismatch('chain');
  if (typeof context.intentHash !== 'string' || context.intentHash.toLowerCase() !== expected.intentHash.toLowerCase()) throw mismatch('intent');
}
