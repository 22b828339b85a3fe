/**
 * The action model's inputs: a fulfil that waits for approval and an extend a PRO plan runs
 * at once (a recreate differs from an extend only in its codes and runs the same paths); then staff decisions on time and late, the runner's
 * pick-up on time and late, and its outcomes, with a code of the document's table and one
 * outside it.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { actionKind } from '../../../actors/kinds/action-kind.js';
import type { ActionContext, ActionEvent, ActionInput } from '../../../machines/action/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

export const ACTION_KIND = actionKind;

export const CREATED_AT = '2026-12-01T12:00:00.000Z';
const minutes = (n: number) => new Date(Date.parse(CREATED_AT) + n * 60_000).toISOString();

export function createAction(input: Partial<Omit<ActionInput, 'id'>> & Pick<ActionInput, 'actionName' | 'needsApproval'>) {
  return {
    type: 'CREATE_ACTION',
    orderId: 'ord_model',
    paymentId: 'pay_model',
    merchantId: 'mer_model',
    idempotencyKey: null,
    txId: null,
    at: CREATED_AT,
    ...input,
  } as const;
}

export const ACTION_VARIANTS: Variant[] = [
  {
    name: 'a fulfil waiting for approval',
    id: 'act_model_fulfil',
    create: createAction({ actionName: 'FULFILL_SAR', needsApproval: true, txId: '4012345678', idempotencyKey: 'key-model-fulfil' }),
  },
  { name: 'an extend on a PRO plan', id: 'act_model_extend', create: createAction({ actionName: 'EXTEND', needsApproval: false }) },
];

/** A code of the document's table for each action, which the action keeps. */
const KNOWN_CODE: Record<ActionContext['actionName'], string> = {
  FULFILL_SAR: 'FULFILL_FAILED',
  EXTEND: 'FIVE_DAY_LIFETIME_EXCEEDED',
  RECREATE: 'DISPATCH_FAILED',
};

/** Every event the action takes, at times that are on time (approval at 5 minutes, pick-up at 6) or late. */
export function actionSamples(actionName: ActionContext['actionName']): ActionEvent[] {
  return [
    sample('on time', { type: 'APPROVE', by: 'staff@peer.test', at: minutes(5) }),
    sample('late', { type: 'APPROVE', by: 'staff@peer.test', at: minutes(16) }),
    { type: 'REJECT', by: 'staff@peer.test', at: minutes(5) },
    { type: 'CANCEL', by: 'staff@peer.test', at: minutes(5) },
    sample('on time', { type: 'STARTED', at: minutes(6) }),
    sample('late', { type: 'STARTED', at: minutes(40) }),
    { type: 'ACTION_SUCCEEDED', result: { confirmedExpiryTime: minutes(24 * 60) }, at: minutes(8) },
    sample('known code', { type: 'ACTION_FAILED', code: KNOWN_CODE[actionName], message: 'the runner says why', at: minutes(8) }),
    sample('unknown code', { type: 'ACTION_FAILED', code: 'SOMETHING_ELSE', message: 'the runner says why', at: minutes(8) }),
  ];
}

export function actionEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  return actionSamples((snapshot.context as ActionContext).actionName);
}

/** The guards read the deadlines, fixed per variant; the error tells apart the ways an action ends. */
export function actionAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as ActionContext;
  return { value: snapshot.value, code: context.error?.code ?? null };
}
