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
  loginCodeReply,
  MAX_CODES_PER_WINDOW,
  rationWaitSeconds,
  type CashoutLoginContext,
  type LoginCodeReply,
} from '../../machines/cashout-login/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export const DASHBOARD_LOGIN_KIND = 'dashboard-login';

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as CashoutLoginContext;

export type DashboardLoginReply = LoginCodeReply;

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
  reply: (snapshot, event): DashboardLoginReply => loginCodeReply(contextOf(snapshot), event),
  check: (snapshot, event) => {
    if (event.type !== 'ISSUE_CODE') return null;
    const retryAfterSeconds = rationWaitSeconds(contextOf(snapshot), event.at);
    if (retryAfterSeconds === null) return null;
    return {
      code: 'SIGN_IN_CODES_RATIONED',
      message: `${MAX_CODES_PER_WINDOW} codes were sent to this address in the last ${CODE_WINDOW_MS / 60_000} minutes`,
      details: { retryAfterSeconds },
    };
  },
});
