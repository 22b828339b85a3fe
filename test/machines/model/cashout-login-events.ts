/**
 * The cashout-login model's inputs: the payout's first code creates the actor; then a new
 * code, the right code, a wrong one, and the right one too late, all inside one 15-minute
 * window (the ration's refusals are the kind's).
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { cashoutLoginKind } from '../../../actors/kinds/index.js';
import type { CashoutLoginContext, CashoutLoginEvent } from '../../../machines/cashout-login/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

export const CASHOUT_LOGIN_KIND = cashoutLoginKind;

const CREATED_AT = '2026-11-23T12:00:00.000Z';
const AT = '2026-11-23T12:01:00.000Z';
/** Past the first code's 10 minutes, inside the window. */
const LATE = '2026-11-23T12:11:00.000Z';

export const CASHOUT_LOGIN_VARIANTS: Variant[] = [
  { name: 'a first code', id: 'po_model_login', create: { type: 'FIRST_CODE', hash: 'a'.repeat(64), at: CREATED_AT } },
];

export function cashoutLoginEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const context = snapshot.context as CashoutLoginContext;
  const current = context.code?.hash ?? 'a'.repeat(64);
  const events: CashoutLoginEvent[] = [
    sample('a new code', { type: 'ISSUE_CODE', hash: 'b'.repeat(64), at: AT }),
    sample('the right code', { type: 'VERIFY_CODE', attemptId: 'try-right', hash: current, at: AT }),
    sample('a wrong code', { type: 'VERIFY_CODE', attemptId: 'try-wrong', hash: 'f'.repeat(64), at: AT }),
    sample('the right code, late', { type: 'VERIFY_CODE', attemptId: 'try-late', hash: current, at: LATE }),
  ];
  return events;
}

/** What decides a try: the current code's hash, tries and use, and how many codes the window has seen. */
export function cashoutLoginAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as CashoutLoginContext;
  return { code: context.code && `${context.code.hash.slice(0, 1)}:${context.code.tries}:${context.code.usedAt !== null}`, issued: context.issued.length };
}
