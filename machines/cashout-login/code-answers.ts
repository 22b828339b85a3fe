/**
 * What a kind built on the code machine answers, whoever signs in with it (a payout's customer,
 * a dashboard member): the reply to a command, and how long an address over its ration of codes
 * must wait. Each kind names its own refusal code around the wait.
 */
import { CODE_WINDOW_MS, issuedInWindow, MAX_CODES_PER_WINDOW, type CashoutLoginContext, type VerificationOutcome } from './login-machine.js';

export interface LoginCodeReply {
  codeExpiresAt: string | null;
  /** The outcome of the try this command made; null for a code issued. */
  outcome: VerificationOutcome | null;
}

export function loginCodeReply(context: CashoutLoginContext, event: { type: string; attemptId?: string }): LoginCodeReply {
  const last = context.lastVerification;
  const outcome = event.type === 'VERIFY_CODE' && last !== null && last.attemptId === event.attemptId ? last.outcome : null;
  return { codeExpiresAt: context.code?.expiresAt ?? null, outcome };
}

/** Seconds until another code may be issued at `at`; null while the window's ration is not spent. */
export function rationWaitSeconds(context: CashoutLoginContext, at: string): number | null {
  const issued = issuedInWindow(context, at);
  if (issued.length < MAX_CODES_PER_WINDOW) return null;
  const retryAt = Date.parse(issued[0]!) + CODE_WINDOW_MS;
  return Math.max(1, Math.ceil((retryAt - Date.parse(at)) / 1000));
}
