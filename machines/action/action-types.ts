/** A remediation action's names, input, context and events (document 1, Remediation actions and Action status). */

export type ActionName = 'RECREATE' | 'EXTEND' | 'FULFILL_SAR';

export type ActionStatus = 'PENDING_APPROVAL' | 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'BLOCKED' | 'FAILED';

/** Document 1, MerchantAction: `{ code, message }` on a FAILED or BLOCKED action. */
export interface ActionError {
  code: string;
  message: string;
}

/** What the action found on SUCCEEDED (document 1, "Results on SUCCEEDED"): its shape is the action's, so the machine keeps it as given. */
export type ActionResult = Record<string, unknown>;

/** The creating message's payload: the route has already checked eligibility, idempotency and the plan. */
export interface ActionInput {
  /** The action's id, the actor's. */
  id: string;
  actionName: ActionName;
  orderId: string;
  paymentId: string;
  merchantId: string;
  /** The merchant's idempotency key, kept so a replay of the key finds this action in any state. */
  idempotencyKey: string | null;
  /** The receipt's transaction or payment id: FULFILL_SAR only, null otherwise. */
  txId: string | null;
  /** Whether the merchant's plan makes this action wait for Peer-side approval. */
  needsApproval: boolean;
  at: string;
}

/** How long each wait may last, fixed when the action is created, so a stored action keeps the deadlines it was given. */
export interface ActionDeadlines {
  approvalMs: number;
  pickUpMs: number;
  runMs: number;
}

/** A Peer-side staff decision on a waiting action. */
export interface ApprovalDecision {
  decision: 'APPROVED' | 'REJECTED' | 'CANCELED';
  by: string;
  at: string;
}

export interface ActionContext extends Omit<ActionInput, 'at'> {
  deadlines: ActionDeadlines;
  /** When the approval window closes; null for an action that never waited. */
  approvalExpiresAt: string | null;
  approval: ApprovalDecision | null;
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  error: ActionError | null;
  result: ActionResult | null;
  createdAt: string;
  updatedAt: string;
}

export type ActionEvent =
  /** Staff: `by` names who decided, for the audit trail. */
  | { type: 'APPROVE'; by: string; at: string }
  | { type: 'REJECT'; by: string; at: string }
  | { type: 'CANCEL'; by: string; at: string }
  /** The runner picked the action up; it runs nothing before this is accepted. */
  | { type: 'STARTED'; at: string }
  | { type: 'ACTION_SUCCEEDED'; result: ActionResult; at: string }
  | { type: 'ACTION_FAILED'; code: string; message: string; at: string };

/** The effect the kind runs on entering QUEUED: the runner does the action and reports STARTED, then its outcome. */
export interface RunActionParams {
  actionId: string;
  actionName: ActionName;
  orderId: string;
  paymentId: string;
  merchantId: string;
  txId: string | null;
}
