/**
 * Document 1's remediation routes (API key): recreate, extend and fulfill-sar on a payment
 * attempt, each 202 with the action (200 for a replayed idempotencyKey), and the action poll.
 * The three actions share one budget of 30 a minute per merchant; the poll shares the 120
 * remediation reads a minute with the order's payment list.
 */
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { ActionName } from '../../machines/action/index.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { CSRF_403, merchantRefusals } from '../openapi/security.js';
import { audited, type AuditLog } from '../dashboard/audit-log.js';
import { roleRefusal } from '../dashboard/principal.js';
import { actionError } from './action-errors.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import type { GatewayState } from '../state.js';
import type { EligibilityReason } from './action-eligibility.js';
import { readAction } from './action-read.js';
import { actionAccepted, merchantAction } from './action-resources.js';
import { actionBody, actionPath, actionPaymentPath, fulfillSarBody } from './action-schemas.js';
import { createAction, type CreateActionDependencies } from './create-action.js';

export interface ActionDependencies extends CreateActionDependencies {
  system: ActorSystem;
  /** Every action asked for is recorded, whoever asked (docs/dashboard-auth.md, the audit log). */
  audit: AuditLog;
  /** Document 1, Limits: 30 actions a minute per merchant, one budget for the three routes. */
  actionLimit: Middleware<GatewayState>;
  /** Document 1, Limits: 120 remediation reads a minute per merchant, shared with the order's payment list. */
  remediationReads: Middleware<GatewayState>;
}

export const ACTIONS_PER_MINUTE = 30;

const REASONS: Record<ActionName, EligibilityReason[]> = {
  RECREATE: ['RAIL_NOT_SUPPORTED', 'PAYMENT_STATUS_NOT_ELIGIBLE', 'ORDER_STATUS_NOT_ELIGIBLE'],
  EXTEND: ['RAIL_NOT_SUPPORTED', 'PAYMENT_STATUS_NOT_ELIGIBLE', 'INTENT_HASH_MISSING', 'EXTEND_TOO_EARLY'],
  FULFILL_SAR: [
    'RAIL_NOT_SUPPORTED',
    'SAR_DISABLED',
    'PAYPAL_NOT_SUPPORTED',
    'SAR_RAIL_DISABLED',
    'SAR_NOT_AVAILABLE',
    'PAYMENT_STATUS_NOT_ELIGIBLE',
    'INTENT_HASH_MISSING',
  ],
};

const coded = (code: string) => z.object({ code: z.literal(code).meta({ description: 'The action error code, as in errorCode' }) });

function actionAnswers(actionName: ActionName) {
  const featureOff =
    actionName === 'EXTEND'
      ? 'remediation actions or extensions are switched off, for the node or the account'
      : 'remediation actions are switched off, for the node or the account';
  const answers = standardAnswers(
    {
      '200': success(200, actionAccepted, 'A replay of the idempotencyKey: the action it made, in its current status'),
      '202': success(202, actionAccepted, 'Accepted: poll the action until SUCCEEDED, BLOCKED or FAILED'),
      '400': invalid('the path or the body'),
      ...merchantRefusals(true),
      '403': detailedFailure(403, [
        { code: 'IP_NOT_ALLOWED', when: 'the client address is outside the key’s apiKeyIpAllowlist' },
        ...CSRF_403.map((outcome) => ({ ...outcome, code: outcome.code! })),
        {
          code: 'ROLE_NOT_ALLOWED',
          when: 'a dashboard session whose member is a Cashier: actions need an Owner or a Manager',
          details: coded('ROLE_NOT_ALLOWED'),
        },
        { code: 'SANDBOX_NOT_SUPPORTED', when: 'a sandbox key: actions act on live payments only', details: coded('SANDBOX_NOT_SUPPORTED') },
        { code: 'ACTION_DENIED', when: 'the account’s plan does not allow the action (docs/remediation.md has the table)', details: coded('ACTION_DENIED') },
      ]),
      '404': failure(404, [{ code: 'NOT_FOUND', when: 'the order is not this merchant’s (in this environment), or the payment is not one of its attempts' }]),
      '409': detailedFailure(409, [
        {
          code: 'ACTION_IN_PROGRESS',
          when: 'an action of the same kind is waiting for approval, queued or running on the attempt; responseObject.actionId is that action',
          details: coded('ACTION_IN_PROGRESS').extend({ actionId: z.string().meta({ description: 'The live action' }) }),
        },
      ]),
      '422': detailedFailure(422, [
        {
          code: 'PAYMENT_NOT_ELIGIBLE',
          when: `an eligibility rule is unmet; responseObject.reason is the first: ${REASONS[actionName].join(', ')}`,
          details: coded('PAYMENT_NOT_ELIGIBLE').extend({
            reason: z.enum(REASONS[actionName] as [EligibilityReason, ...EligibilityReason[]]).meta({ description: 'The unmet rule' }),
          }),
        },
        {
          code: 'IDEMPOTENCY_KEY_MISMATCH',
          when: 'the idempotencyKey was used for another order, payment, action or txId',
          details: coded('IDEMPOTENCY_KEY_MISMATCH'),
        },
      ]),
      '502': detailedFailure(502, [
        {
          code: 'SUPPORT_UNAVAILABLE',
          when: 'the action waits for approval and the support side did not answer in time: retry with the same idempotencyKey',
          details: coded('SUPPORT_UNAVAILABLE'),
        },
      ]),
    },
    { body: true, asksActors: true },
  );
  // Every action error carries its code in responseObject (document 1), FEATURE_DISABLED included.
  answers['503'] = detailedFailure(503, [
    { code: 'SERVICE_UNAVAILABLE', when: 'The node could not reach the actor in time, or is shutting down; retry after Retry-After' },
    { code: 'FEATURE_DISABLED', when: featureOff, details: coded('FEATURE_DISABLED') },
  ]);
  return answers;
}

/**
 * Document 1: an API key, or a session of an Owner or a Manager. Ahead of the body parser, so a
 * Cashier is told ROLE_NOT_ALLOWED whatever the body says (docs/remediation.md's order), and after
 * `audited`, so the refusal is in the audit log.
 */
const ownerOrManager: Middleware<GatewayState> = async (ctx, next) => {
  const refusal = roleRefusal(ctx, ['OWNER', 'MANAGER']);
  if (refusal) throw actionError(403, 'ROLE_NOT_ALLOWED', refusal);
  await next();
};

function actionOperation(actionName: ActionName, suffix: string, operationId: string, summary: string, description: string) {
  const body = actionName === 'FULFILL_SAR' ? fulfillSarBody : actionBody;
  return defineOperation({
    method: 'post',
    path: `/api/v1/merchants/me/orders/:orderId/payments/:paymentId/${suffix}`,
    operationId,
    tags: ['Remediation'],
    summary,
    description,
    guard: 'merchant',
    request: { path: actionPaymentPath, body },
    // Audited first: a call the limit refuses is a call too (the audit log has every action call).
    before: (deps: ActionDependencies) => [audited(deps.audit, operationId), deps.actionLimit, ownerOrManager],
    answers: actionAnswers(actionName),
    handle:
      (deps: ActionDependencies) =>
      async (ctx, { path, body: sent }) => {
        const fields = (sent ?? {}) as { idempotencyKey?: string; txId?: string };
        const accepted = await createAction(deps, ctx.state.account, {
          actionName,
          orderId: path.orderId,
          paymentId: path.paymentId,
          idempotencyKey: fields.idempotencyKey ?? null,
          txId: fields.txId ?? null,
        });
        const shown = { actionId: accepted.actionId, status: accepted.status };
        if (accepted.replayed) reply(ctx, 200, 'Action already accepted for this idempotencyKey', actionAccepted, shown);
        else reply(ctx, 202, 'Action accepted', actionAccepted, shown);
      },
  });
}

const recreateOperation = actionOperation(
  'RECREATE',
  'recreate',
  'recreatePayment',
  'Reopen an expired, cancelled or failed attempt as a new intent',
  'The attempt gets a new intent on chain, a fresh window and railIdentifier = result.intentHash; no webhook fires for the reopening, PAYMENT_SETTLED if it later settles.',
);
const extendOperation = actionOperation(
  'EXTEND',
  'extend',
  'extendPayment',
  'Move an attempt’s expiry 24 hours later',
  'Allowed when quoteExpiresAt is at most 6 hours away; an attempt lives at most 5 days from its creation (a request past that is accepted and ends FAILED with FIVE_DAY_LIFETIME_EXCEEDED). result.confirmedExpiryTime is the new expiry; quoteExpiresAt follows.',
);
const fulfillSarOperation = actionOperation(
  'FULFILL_SAR',
  'fulfill-sar',
  'fulfillPaymentFromReceipt',
  'Settle an attempt from the customer’s receipt id',
  'The receipt id is checked with the maker’s own session (the attestation service’s seller path), then the intent is fulfilled on chain. A wrong or unverifiable id ends FAILED with REMEDIATION_FAILED; an attempt that had settled succeeds with { alreadyCompleted: true, fulfillTxHash }.',
);

const readActionOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/orders/:orderId/actions/:actionId',
  operationId: 'getAction',
  tags: ['Remediation'],
  summary: 'Poll a remediation action',
  description: 'Counts toward the merchant’s remediation reads (120 a minute, with the order’s payment list). Works whatever the switches say.',
  guard: 'merchant',
  request: { path: actionPath },
  // Every poll is in the audit log, an API key's as a session's, refused by the limit or not.
  before: (deps: ActionDependencies) => [audited(deps.audit, 'getAction'), deps.remediationReads],
  answers: standardAnswers({
    '200': success(200, merchantAction, 'The action, with its attempt’s current row'),
    '400': invalid('the path'),
    ...merchantRefusals(false),
    '404': failure(404, [{ code: 'NOT_FOUND', when: 'the action does not exist or is not on a payment of this order for this merchant' }]),
  }),
  handle:
    (deps: ActionDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Action', merchantAction, await readAction(deps.system, ctx.state.account, path.orderId, path.actionId));
    },
});

export function actionOperations(): Operation<ActionDependencies>[] {
  return [recreateOperation, extendOperation, fulfillSarOperation, readActionOperation];
}
