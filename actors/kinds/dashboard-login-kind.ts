/**
 * The `dashboard-login` actor kind: a dashboard address's sign-in codes, one actor per address,
 * its id derived from the address (docs/dashboard-auth.md). Its machine is the payout
 * customer's code machine, whose rules (a code expires, signs in once, dies after a few wrong
 * tries, and only so many are sent per window) are the ones a dashboard code needs too.
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

export const DASHBOARD_LOGIN_KIND = 'dashboard-login';

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as CashoutLoginContext;

export interface DashboardLoginReply {
  codeExpiresAt: string | null;
  /** The outcome of the try this command made; null for a code issued. */
  outcome: VerificationOutcome | null;
}

export const dashboardLoginKind = defineKind({
  name: DASHBOARD_LOGIN_KIND,
  machine: cashoutLoginMachine,
  machineVersion: 1,
  createdBy: ['FIRST_CODE'],
  input: (event: { type: 'FIRST_CODE'; hash: string; at: string }, id: string) => ({ id, hash: event.hash, at: event.at }),
  view: (snapshot) => {
    const context = contextOf(snapshot);
    return { codeExpiresAt: context.code?.expiresAt ?? null, signIns: context.signIns, updatedAt: context.updatedAt };
  },
  reply: (snapshot, event): DashboardLoginReply => {
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
      code: 'SIGN_IN_CODES_RATIONED',
      message: `${MAX_CODES_PER_WINDOW} codes were sent to this address in the last ${CODE_WINDOW_MS / 60_000} minutes`,
      details: { retryAfterSeconds: Math.max(1, Math.ceil((retryAt - Date.parse(event.at)) / 1000)) },
    };
  },
});
