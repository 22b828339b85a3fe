/**
 * A payout customer signs in with a one-time code sent to the payout's e-mail (document 2;
 * docs/payout-checkout.md, "Signing in"). The code is drawn here and mailed; the
 * `cashout-login` actor keeps its HMAC and decides each try, so expiry, single use, the tries
 * a code takes and the codes a payout may be sent hold across nodes. A code that signs in
 * answers a login token for the customer's account at the wallet provider.
 */
import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { CommandRejectedError, UnknownActorError } from '../../actors/errors.js';
import { cashoutLoginKind } from '../../actors/kinds/cashout-login-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { VerificationOutcome } from '../../machines/cashout-login/index.js';
import { ApiError } from '../envelope.js';
import { cashoutError, type CheckoutPayout } from './cashout-access.js';
import type { KeptKeys } from './kept-keys.js';
import type { LoginTokens } from './login-tokens.js';
import type { SignInMail } from './sign-in-mail.js';

const CODE_PURPOSE = 'cashout-code';

export interface SignInDependencies {
  system: ActorSystem;
  keys: KeptKeys;
  logins: LoginTokens;
  mail: SignInMail;
  now: () => number;
}

export interface CodeSent {
  /** The e-mail the code went to, masked: the link may be forwarded, the address stays private. */
  sentTo: string;
  expiresAt: string;
}

export interface SignedIn {
  loginToken: string;
  expiresAt: string;
}

const WHY: Record<Exclude<VerificationOutcome, 'SIGNED_IN'>, string> = {
  WRONG_CODE: 'That code is not right: check the e-mail and try again',
  CODE_EXPIRED: 'That code has expired: ask for a new one',
  NO_CODE: 'No code was sent for this payout yet: ask for one',
  CODE_USED: 'That code was used already: ask for a new one',
  TOO_MANY_TRIES: 'Too many wrong tries for that code: ask for a new one',
};

export async function sendSignInCode(deps: SignInDependencies, payout: CheckoutPayout, merchantName: string | null): Promise<CodeSent> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const at = new Date(deps.now()).toISOString();
  const hash = await codeHash(deps, payout, code);
  let expiresAt: string | null;
  try {
    ({ codeExpiresAt: expiresAt } = await issue(deps, payout.payout.payoutId, hash, at));
  } catch (error) {
    if (error instanceof CommandRejectedError && error.code === 'CASHOUT_CODES_RATIONED') {
      const { retryAfterSeconds } = error.details as { retryAfterSeconds: number };
      throw new ApiError(429, 'Too many requests', undefined, null, retryAfterSeconds, { cause: error });
    }
    throw error;
  }
  try {
    await deps.mail.sendCode({ to: payout.customerEmail, code, expiresAt: expiresAt!, merchantName });
  } catch (error) {
    throw cashoutError('CASHOUT_CODE_NOT_SENT', 'The code could not be e-mailed just now: try again in a moment', null, error);
  }
  return { sentTo: maskedEmail(payout.customerEmail), expiresAt: expiresAt! };
}

export async function signIn(deps: SignInDependencies, payout: CheckoutPayout, code: string): Promise<SignedIn> {
  const at = new Date(deps.now()).toISOString();
  let outcome: VerificationOutcome;
  try {
    const attemptId = randomUUID();
    ({ outcome } = (await deps.system.ask(cashoutLoginKind, payout.payout.payoutId, {
      type: 'VERIFY_CODE',
      attemptId,
      hash: await codeHash(deps, payout, code),
      at,
    })) as {
      outcome: VerificationOutcome;
    });
  } catch (error) {
    if (!(error instanceof UnknownActorError)) throw error;
    outcome = 'NO_CODE';
  }
  if (outcome !== 'SIGNED_IN') throw cashoutError('CASHOUT_CODE_INVALID', WHY[outcome], { reason: outcome });
  const { token, expiresAt } = await deps.logins.issue(payout.walletUserId!, payout.payout.payoutId);
  return { loginToken: token, expiresAt };
}

/** The payout's first code creates its sign-in actor; two first codes at once: the loser issues into the winner's. */
async function issue(deps: SignInDependencies, payoutId: string, hash: string, at: string) {
  try {
    return await deps.system.ask(cashoutLoginKind, payoutId, { type: 'ISSUE_CODE', hash, at });
  } catch (error) {
    if (!(error instanceof UnknownActorError)) throw error;
  }
  try {
    return await deps.system.ask(cashoutLoginKind, payoutId, { type: 'FIRST_CODE', hash, at });
  } catch (error) {
    if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
    return deps.system.ask(cashoutLoginKind, payoutId, { type: 'ISSUE_CODE', hash, at });
  }
}

/** Under the node's code key and bound to the payout, so a code means nothing on another payout or node's key. */
async function codeHash(deps: SignInDependencies, payout: CheckoutPayout, code: string): Promise<string> {
  const key = await deps.keys.current(CODE_PURPOSE);
  return createHmac('sha256', key.secret).update(`${payout.payout.payoutId}:${code}`).digest('hex');
}

/** `ana@example.com` → `a••@example.com`: enough for the customer to know which inbox to look in. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '••';
  return `${email[0]}••@${email.slice(at + 1)}`;
}
