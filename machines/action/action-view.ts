/**
 * What an action reads as: document 1's MerchantAction without `payment` (the route adds the
 * attempt's current row), plus the fields the lists filter on: the merchant's and the order's
 * actions, a replayed idempotency key, and the live action of a kind on an attempt.
 */
import type { ActionContext, ActionError, ActionName, ActionResult, ActionStatus } from './action-types.js';

/** A type, not an interface: a kind's view must read as plain data (`Record<string, unknown>`). */
export type ActionView = {
  actionId: string;
  actionName: ActionName;
  paymentId: string;
  status: ActionStatus;
  error: ActionError | null;
  result: ActionResult | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  orderId: string;
  merchantId: string;
  idempotencyKey: string | null;
  txId: string | null;
  /** Waiting for approval, queued or running: what ACTION_IN_PROGRESS looks for. */
  live: boolean;
  /**
   * `<paymentId>:<actionName>` while live, the action's id once final: unique across actions, so
   * two live actions of a kind on one attempt cannot both be created, however close their requests.
   */
  liveKey: string;
  /** When a waiting action's approval window closes, for the staff who decide it. */
  approvalExpiresAt: string | null;
  updatedAt: string;
};

const LIVE: readonly ActionStatus[] = ['PENDING_APPROVAL', 'QUEUED', 'RUNNING'];

/** The status of a state value: the machine's states are the document's statuses. */
export function actionStatusOf(value: unknown): ActionStatus {
  return value as ActionStatus;
}

export function toActionView(context: ActionContext, status: ActionStatus): ActionView {
  return {
    actionId: context.id,
    actionName: context.actionName,
    paymentId: context.paymentId,
    status,
    error: context.error,
    result: context.result,
    createdAt: context.createdAt,
    startedAt: context.startedAt,
    finishedAt: context.finishedAt,
    orderId: context.orderId,
    merchantId: context.merchantId,
    idempotencyKey: context.idempotencyKey,
    txId: context.txId,
    live: LIVE.includes(status),
    liveKey: LIVE.includes(status) ? `${context.paymentId}:${context.actionName}` : context.id,
    approvalExpiresAt: context.approvalExpiresAt,
    updatedAt: context.updatedAt,
  };
}
