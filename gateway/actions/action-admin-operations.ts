/**
 * Peer-side staff's side of remediation, under the admin token: the actions (those waiting for
 * approval first, oldest first), and the decision on one waiting action: approve, reject or
 * cancel, each naming who decided. `npm run admin -- actions|approve|reject|cancel` calls these.
 */
import { z } from 'zod';
import { actionKind } from '../../actors/kinds/index.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { ActionView } from '../../machines/action/index.js';
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { adminRefusal } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { actionFailure, actionName, actionStatus } from './action-resources.js';
import { actionId } from './action-schemas.js';

export interface ActionAdminDependencies {
  system: ActorSystem;
  now(): string;
}

const stafferAction = z
  .object({
    actionId: z.string().meta({ description: 'The action’s id' }),
    actionName,
    status: actionStatus,
    merchantId: z.string().meta({ description: 'Whose action it is' }),
    orderId: z.string().meta({ description: 'The order of the attempt' }),
    paymentId: z.string().meta({ description: 'The attempt it acts on' }),
    txId: z.string().nullable().meta({ description: 'The receipt id of a fulfill-sar action; null otherwise' }),
    approvalExpiresAt: z.string().nullable().meta({ description: 'When a waiting action is BLOCKED with APPROVAL_EXPIRED; null for one that never waited' }),
    error: actionFailure,
    createdAt: z.string().meta({ description: 'When the merchant asked for it' }),
    finishedAt: z.string().nullable().meta({ description: 'When it reached a final status; null before' }),
  })
  .meta({ id: 'StaffAction', description: 'A remediation action as Peer-side staff see it' });

const stafferActions = z.object({ actions: z.array(stafferAction).meta({ description: 'At most 100, oldest first' }) }).meta({ id: 'StaffActionList' });

const shown = (view: ActionView): z.output<typeof stafferAction> => ({
  actionId: view.actionId,
  actionName: view.actionName,
  status: view.status,
  merchantId: view.merchantId,
  orderId: view.orderId,
  paymentId: view.paymentId,
  txId: view.txId,
  approvalExpiresAt: view.approvalExpiresAt,
  error: view.error,
  createdAt: view.createdAt,
  finishedAt: view.finishedAt,
});

const listActionsOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/actions',
  operationId: 'listActionsForStaff',
  tags: ['Admin'],
  summary: 'Remediation actions, waiting for approval by default',
  description: 'Oldest first, at most 100: the order staff should decide them in.',
  guard: 'adminToken',
  request: {
    query: z.strictObject({
      status: actionStatus.optional().meta({ description: 'Only actions in this status; PENDING_APPROVAL when absent' }),
      merchantId: z.string().max(64).optional().meta({ description: 'Only this merchant’s actions' }),
    }),
  },
  answers: standardAnswers({ '200': success(200, stafferActions, 'The actions'), '400': invalid('the query'), ...adminRefusal }),
  handle:
    (deps: ActionAdminDependencies) =>
    async (ctx, { query }) => {
      const filter: Record<string, unknown> = { 'view.status': query.status ?? 'PENDING_APPROVAL' };
      if (query.merchantId) filter['view.merchantId'] = query.merchantId;
      const docs = await deps.system.views(actionKind).find(filter, { sort: { 'view.createdAt': 1 }, limit: 100, projection: { view: 1 } });
      reply(ctx, 200, 'Actions', stafferActions, { actions: docs.map((doc) => shown(doc.view)) });
    },
});

const DECISIONS = { approve: 'APPROVE', reject: 'REJECT', cancel: 'CANCEL' } as const;

function decisionOperation(verb: keyof typeof DECISIONS, summary: string) {
  return defineOperation({
    method: 'post',
    path: `/internal/v1/actions/:actionId/${verb}`,
    operationId: `${verb}Action`,
    tags: ['Admin'],
    summary,
    description: 'Only an action waiting for approval takes a decision; an approval after its 15 minutes blocks it with APPROVAL_EXPIRED instead.',
    guard: 'adminToken',
    request: {
      path: z.strictObject({ actionId }),
      body: z.strictObject({ by: z.string().trim().min(1).max(100).meta({ description: 'Who decided, for the action’s record', example: 'alice@peer' }) }),
    },
    answers: standardAnswers(
      {
        '200': success(200, stafferAction, 'The action after the decision'),
        '400': invalid('the path or the body'),
        ...adminRefusal,
        '404': failure(404, [{ code: 'ACTOR_NOT_FOUND', when: 'no action has that id' }]),
        '409': failure(409, [{ code: 'EVENT_NOT_ACCEPTED', when: 'the action is not waiting for approval (it was decided, or it expired)' }]),
      },
      { body: true, asksActors: true },
    ),
    handle:
      (deps: ActionAdminDependencies) =>
      async (ctx, { path, body }) => {
        const view = (await deps.system.ask(actionKind, path.actionId, { type: DECISIONS[verb], by: body.by, at: deps.now() })) as ActionView;
        reply(ctx, 200, `Action ${view.status}`, stafferAction, shown(view));
      },
  });
}

export function actionAdminOperations(): Operation<ActionAdminDependencies>[] {
  return [
    listActionsOperation,
    decisionOperation('approve', 'Approve a waiting action: it is queued and runs'),
    decisionOperation('reject', 'Reject a waiting action: BLOCKED with APPROVAL_REJECTED'),
    decisionOperation('cancel', 'Cancel a waiting action: BLOCKED with ACTION_CANCELED'),
  ];
}
