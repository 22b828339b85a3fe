/**
 * The action kind's one effect: running a remediation action once it is QUEUED. The runner
 * claims the action (STARTED) before it touches anything, so an action that expired or was
 * cancelled meanwhile never runs, then hands the step to the attempt it acts on (REOPEN,
 * EXTEND or SELLER_RECEIPT). The attempt does the work, because the chain and the attestation
 * service answer it, and tells the action how it ended (machines/payment/payment-remediation.ts).
 *
 * What the attempt refuses ends the action at once with the code document 1 gives that case;
 * a fulfil on an attempt that settled meanwhile succeeds with `alreadyCompleted`. Every message
 * carries an id derived from the effect's, so a second run after a crash repeats nothing.
 */
import type { ActionEvent, ActionName, actionMachine, RunActionParams } from '../../machines/action/index.js';
import { CommandRejectedError } from '../errors.js';
import type { PaymentView } from '../kinds/payment-kind.js';
import type { EffectContext, EffectHandlers } from '../runtime/actor-kind.js';
import { reportToSelf } from '../runtime/effect-report.js';

export interface ActionRunnerDependencies {
  /** The attempt's current view; null when there is none. */
  payment(paymentId: string): Promise<PaymentView | null>;
}

export function actionEffects(deps: ActionRunnerDependencies): EffectHandlers<typeof actionMachine> {
  return {
    async runAction(params: RunActionParams, context: EffectContext) {
      const at = new Date(await context.actorNow()).toISOString();
      if (!(await claimed(context, at))) return;
      const step = stepOf(params, at);
      try {
        await context.askAt({ kind: 'payment', id: params.paymentId }, step, { messageId: `${context.effectId}:step` });
      } catch (error) {
        if (!(error instanceof CommandRejectedError)) throw error;
        await reportToSelf<ActionEvent>(context, await refusedOutcome(deps, params, error, at));
      }
    },
  };
}

/** STARTED taken: the action is RUNNING and is this run's. Refused: it ended before it was picked up. */
async function claimed(context: EffectContext, at: string): Promise<boolean> {
  try {
    await context.askAt(context.actor, { type: 'STARTED', at }, { messageId: `${context.effectId}:started` });
    return true;
  } catch (error) {
    if (!(error instanceof CommandRejectedError && error.code === 'EVENT_NOT_ACCEPTED')) throw error;
    context.logger.info({ action: context.actor.id, state: error.message }, 'the action ended before it was picked up: not run');
    return false;
  }
}

const STEPS: Record<ActionName, 'REOPEN' | 'EXTEND' | 'SELLER_RECEIPT'> = { RECREATE: 'REOPEN', EXTEND: 'EXTEND', FULFILL_SAR: 'SELLER_RECEIPT' };

function stepOf(params: RunActionParams, at: string) {
  const type = STEPS[params.actionName];
  return type === 'SELLER_RECEIPT' ? { type, actionId: params.actionId, txId: params.txId ?? '', at } : { type, actionId: params.actionId, at };
}

/** What the attempt's refusal means for the action: document 1's code for the case, REMEDIATION_FAILED for the rest. */
async function refusedOutcome(deps: ActionRunnerDependencies, params: RunActionParams, refusal: CommandRejectedError, at: string): Promise<ActionEvent> {
  if (params.actionName === 'FULFILL_SAR') {
    const payment = await deps.payment(params.paymentId);
    if (payment?.status === 'SETTLED') {
      return { type: 'ACTION_SUCCEEDED', result: { alreadyCompleted: true, fulfillTxHash: payment.payment.fulfillTransaction }, at };
    }
  }
  const code = params.actionName === 'EXTEND' && refusal.code === 'PAYMENT_NOT_OPEN' ? 'PAYMENT_NOT_OPEN' : 'REMEDIATION_FAILED';
  return { type: 'ACTION_FAILED', code, message: refusal.message, at };
}
