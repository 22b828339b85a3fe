/**
 * The `action` actor kind: one remediation action, its id the action's. The route creates it
 * (CREATE_ACTION) once eligibility, idempotency and the plan are settled; staff decide it and
 * the runner reports to it. Late events at a final status are refused by the runtime, so
 * nothing changes it again. Its effect (the runner) is actors/actions/; the node registers
 * `withEffects(actionKind, actionEffects(…))`.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { actionMachine, actionStatusOf, toActionView, type ActionContext, type ActionInput } from '../../machines/action/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export const ACTION_KIND = 'action';

export const actionKind = defineKind({
  name: ACTION_KIND,
  machine: actionMachine,
  machineVersion: 1,
  createdBy: ['CREATE_ACTION'],
  input: (event: { type: 'CREATE_ACTION' } & Omit<ActionInput, 'id'>, id: string): ActionInput => {
    const { type: _type, ...input } = event;
    return { ...input, id };
  },
  view: (snapshot: AnyMachineSnapshot) => toActionView(snapshot.context as ActionContext, actionStatusOf(snapshot.value)),
  viewIndexes: [
    { key: { 'view.liveKey': 1 }, unique: true, name: 'action_live_per_attempt_and_kind' },
    { key: { 'view.merchantId': 1, 'view.idempotencyKey': 1 }, name: 'action_by_merchant_key' },
    { key: { 'view.orderId': 1, 'view.createdAt': -1 }, name: 'action_by_order_newest' },
    { key: { 'view.status': 1, 'view.createdAt': 1 }, name: 'action_by_status_oldest' },
  ],
});
