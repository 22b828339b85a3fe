/**
 * The `cashout-login` actor kind: a payout customer's sign-in codes, one actor per payout (its
 * id the payout's). The first code creates it (FIRST_CODE). A code over the window's ration is refused
 * before the machine sees it; a try answers its outcome. The view says only when the latest
 * code expires: the hashes stay in the snapshot.
 */
import type { AnyMachineSnapshot } from 'xstate';
import {
  CODE_WINDOW_MS,
  cashoutLoginMachine,
  issuedInWindow,
  MAX_CODES_PER_WINDOW,
  type CashoutLoginContext,
  type VerificationOutcome,
} from '../../machines/cashout-login/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export const CASHOUT_LOGIN_KIND = 'cashout-login';

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as CashoutLoginContext;

export interface CashoutLoginReply {
  codeExpiresAt: string | null;
  /** The outcome of the try this command made; null for an ISSUE_CODE. */
  outcome: VerificationOutcome | null;
}

export const cashoutLoginKind = defineKind({
  name: CASHOUT_LOGIN_KIND,
  machine: cashoutLoginMachine,
  machineVersion: 1,
  // The first code creates the actor; the runtime refuses a creating event for an actor that exists, so later codes are ISSUE_CODE.
  createdBy: ['FIRST_CODE'],
  input: (event: { type: 'FIRST_CODE'; hash: string; at: string }, id: string) => ({ id, hash: event.hash, at: event.at }),
  view: (snapshot) => {
    const context = contextOf(snapshot);
    return { payoutId: context.id, codeExpiresAt: context.code?.expiresAt ?? null, signIns: context.signIns, updatedAt: context.updatedAt };
  },
  reply: (snapshot, event): CashoutLoginReply => {
    const context = contextOf(snapshot);
    const outcome = event.type === 'VERIFY_CODE' && context.lastVerification?.attemptId === event.attemptId ? context.lastVerification.outcome : null;
    return { codeExpiresAt: context.code?.expiresAt ?? null, outcome };
  },
  check: (snapshot, event) => {
    if (event.type !== 'ISSUE_CODE') return null;
    const issued = issuedInWindow(contextOf(snapshot), event.at);
    if (issued.length < MAX_CODES_PER_WINDOW) return null;
    const retryAt = Date.parse(issued[0]!) + CODE_WINDOW_MS;
    return {
      code: 'CASHOUT_CODES_RATIONED',
      message: `${MAX_CODES_PER_WINDOW} codes were sent in the last ${CODE_WINDOW_MS / 60_000} minutes`,
      details: { retryAfterSeconds: Math.max(1, Math.ceil((retryAt - Date.parse(event.at)) / 1000)) },
    };
  },
});
