/**
 * Accepting a remediation action (document 1, Remediation actions): who may ask, the replay of
 * an idempotencyKey, the switches and the plan, the order and attempt, every eligibility rule,
 * the one live action of a kind per attempt, the support side for an action that waits for
 * approval, and last the action actor, created once. The order of the checks is the one
 * docs/remediation.md lists; a replay is answered before any switch, as document 1 requires.
 */
import { actionKind, orderKind, paymentKind } from '../../actors/kinds/index.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { CommandRejectedError } from '../../actors/errors.js';
import { APPROVAL_WINDOW_MS, type ActionName, type ActionStatus } from '../../machines/action/index.js';
import { isoAfter } from '../../machines/iso-time.js';
import { orderNotFound } from '../checkout/order-access.js';
import { ApiError } from '../envelope.js';
import { derivedId, newId } from '../ids.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import { ineligibility } from './action-eligibility.js';
import { actionError, inProgress, keyMismatch, notEligible, sandboxRefused } from './action-errors.js';
import { planRule } from './action-plans.js';
import { askDesk, type SupportDesk } from './support-desk.js';

/** The node's side of remediation: its switches, the support side and how long it may take. */
export interface RemediationSettings {
  actionsEnabled: boolean;
  extensionsEnabled: boolean;
  /** Whether the node reaches an attestation service's seller path (fulfill-sar). */
  sellerRelease: boolean;
  sellerRailsOff: ReadonlySet<string>;
  support: SupportDesk;
  supportTimeoutMs: number;
}

export interface CreateActionDependencies {
  system: ActorSystem;
  idSecret: string;
  now(): string;
  remediation: RemediationSettings;
}

export interface ActionRequest {
  actionName: ActionName;
  orderId: string;
  paymentId: string;
  idempotencyKey: string | null;
  txId: string | null;
}

export type ActionAcceptance = { replayed: boolean; actionId: string; status: ActionStatus };

export async function createAction(deps: CreateActionDependencies, account: MerchantAccount, request: ActionRequest): Promise<ActionAcceptance> {
  if (account.environment !== 'LIVE') throw sandboxRefused();
  if (request.idempotencyKey) {
    const replay = await replayOf(deps.system, account, request);
    if (replay) return replay;
  }
  switchedOn(deps.remediation, account, request.actionName);
  const rule = planRule(account.profile.tier, request.actionName);
  if (rule === 'DENIED') {
    throw actionError(403, 'ACTION_DENIED', `${request.actionName} is not allowed on the account’s plan (${account.profile.tier ?? 'none selected'})`);
  }
  const { order, payment, otherActive } = await attemptOf(deps.system, account, request);
  const refusal = ineligibility({
    actionName: request.actionName,
    payment,
    order,
    otherActive,
    merchantRails: account.profile.merchantConfig.enabledRails,
    sellerRelease: deps.remediation.sellerRelease,
    sellerRailsOff: deps.remediation.sellerRailsOff,
    now: Date.parse(deps.now()),
  });
  if (refusal) throw notEligible(refusal);
  await refuseLive(deps.system, request);

  const at = deps.now();
  const actionId = request.idempotencyKey ? derivedId('act', deps.idSecret, account.merchantId, account.environment, request.idempotencyKey) : newId('act');
  const needsApproval = rule === 'APPROVAL';
  if (needsApproval) {
    const { support, supportTimeoutMs } = deps.remediation;
    await askDesk(
      support,
      {
        actionId,
        actionName: request.actionName,
        merchantId: account.merchantId,
        orderId: request.orderId,
        paymentId: request.paymentId,
        expiresAt: isoAfter(at, APPROVAL_WINDOW_MS),
      },
      supportTimeoutMs,
    );
  }
  try {
    const view = await deps.system.ask(actionKind, actionId, {
      type: 'CREATE_ACTION',
      actionName: request.actionName,
      orderId: request.orderId,
      paymentId: request.paymentId,
      merchantId: account.merchantId,
      idempotencyKey: request.idempotencyKey,
      txId: request.txId,
      needsApproval,
      at,
    });
    return { replayed: false, actionId, status: (view as { status: ActionStatus }).status };
  } catch (error) {
    if (!(error instanceof CommandRejectedError)) throw error;
    // DUPLICATE: another live action of this kind on the attempt won the race. ALREADY_EXISTS: a concurrent request with this key did.
    if (error.code === 'DUPLICATE') await refuseLive(deps.system, request);
    if (error.code === 'ALREADY_EXISTS' && request.idempotencyKey) {
      const replay = await replayOf(deps.system, account, request);
      if (replay) return replay;
    }
    throw error;
  }
}

/** The action this merchant made with the key: replayed when the request is the same, 422 when it is not. */
async function replayOf(system: ActorSystem, account: MerchantAccount, request: ActionRequest): Promise<ActionAcceptance | null> {
  const doc = await system
    .views(actionKind)
    .findOne({ 'view.merchantId': account.merchantId, 'view.idempotencyKey': request.idempotencyKey }, { projection: { view: 1 } });
  if (!doc) return null;
  const action = doc.view;
  const same =
    action.orderId === request.orderId && action.paymentId === request.paymentId && action.actionName === request.actionName && action.txId === request.txId;
  if (!same) throw keyMismatch();
  return { replayed: true, actionId: action.actionId, status: action.status };
}

function switchedOn(settings: RemediationSettings, account: MerchantAccount, actionName: ActionName): void {
  const config = account.profile.merchantConfig;
  if (!settings.actionsEnabled || config.remediationActionsEnabled === false) {
    throw actionError(503, 'FEATURE_DISABLED', 'Remediation actions are switched off; polls and replays of an existing key keep working');
  }
  if (actionName === 'EXTEND' && (!settings.extensionsEnabled || config.remediationExtensionsEnabled === false)) {
    throw actionError(503, 'FEATURE_DISABLED', 'Extensions are switched off; polls and replays of an existing key keep working');
  }
}

/** The order (this merchant's, this environment's), the attempt on it, and any other attempt of it in progress; 404 otherwise. */
async function attemptOf(system: ActorSystem, account: MerchantAccount, request: ActionRequest) {
  const orderDoc = await system
    .views(orderKind)
    .findOne({ _id: request.orderId, 'view.merchantId': account.merchantId, 'view.environment': account.environment }, { projection: { view: 1 } });
  if (!orderDoc) throw orderNotFound();
  const paymentDoc = await system.views(paymentKind).findOne({ _id: request.paymentId, 'view.orderId': request.orderId }, { projection: { view: 1 } });
  if (!paymentDoc) throw new ApiError(404, 'Payment not found on this order', 'NOT_FOUND');
  const active = await system.views(paymentKind).find({ 'view.orderId': request.orderId, 'view.status': 'CREATED' }, { projection: { _id: 1 } });
  const otherActive = active.find((doc) => doc._id !== request.paymentId)?._id ?? null;
  return { order: orderDoc.view, payment: paymentDoc.view, otherActive };
}

/** 409 with the live action of this kind on the attempt, if there is one. */
async function refuseLive(system: ActorSystem, request: ActionRequest): Promise<void> {
  const live = await system.views(actionKind).findOne({ 'view.liveKey': `${request.paymentId}:${request.actionName}` }, { projection: { view: 1 } });
  if (live) throw inProgress(live.view.actionId, request.actionName);
}
