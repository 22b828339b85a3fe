/** The action poll (document 1, GET …/orders/{orderId}/actions/{actionId}): the action with its attempt's current row. */
import { actionKind, paymentKind } from '../../actors/kinds/index.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import type { MerchantAction } from './action-resources.js';

const notFound = () => new ApiError(404, 'Action not found', 'NOT_FOUND');

/** 404 when the action does not exist or is not on a payment of this order for this merchant. */
export async function readAction(system: ActorSystem, account: MerchantAccount, orderId: string, actionId: string): Promise<MerchantAction> {
  const doc = await system
    .views(actionKind)
    .findOne({ _id: actionId, 'view.orderId': orderId, 'view.merchantId': account.merchantId }, { projection: { view: 1 } });
  if (!doc) throw notFound();
  const payment = await system.views(paymentKind).findOne({ _id: doc.view.paymentId, 'view.environment': account.environment }, { projection: { view: 1 } });
  if (!payment) throw notFound();
  const { actionId: id, actionName, paymentId, status, error, result, createdAt, startedAt, finishedAt } = doc.view;
  return { actionId: id, actionName, paymentId, status, error, result, payment: payment.view.payment, createdAt, startedAt, finishedAt };
}
