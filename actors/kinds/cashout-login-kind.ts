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
  loginCodeReply,
  MAX_CODES_PER_WINDOW,
  rationWaitSeconds,
  type CashoutLoginContext,
  type LoginCodeReply,
} from '../../machines/cashout-login/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export const CASHOUT_LOGIN_KIND = 'cashout-login';

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as CashoutLoginContext;

export type CashoutLoginReply = LoginCodeReply;

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
  reply: (snapshot, event): CashoutLoginReply => loginCodeReply(contextOf(snapshot), event),
  check: (snapshot, event) => {
    if (event.type !== 'ISSUE_CODE') return null;
    const retryAfterSeconds = rationWaitSeconds(contextOf(snapshot), event.at);
    if (retryAfterSeconds === null) return null;
    return {
      code: 'CASHOUT_CODES_RATIONED',
      message: `${MAX_CODES_PER_WINDOW} codes were sent in the last ${CODE_WINDOW_MS / 60_000} minutes`,
      details: { retryAfterSeconds },
    };
  },
});
