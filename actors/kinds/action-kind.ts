/**
 * The `action` actor kind: one remediation action, its id the action's. The route creates it
 * (CREATE_ACTION) once eligibility, idempotency and the plan are settled; staff decide it and
 * the runner reports to it. Late events at a final status are refused by the runtime, so
 * nothing changes it again. Not registered on a node yet: its routes and runner come next.
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
});
