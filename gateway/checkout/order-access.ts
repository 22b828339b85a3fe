/**
 * The customer's credential: the order token create-order handed the merchant, which the
 * checkout link carries (`?order=…&token=…`) and the page sends as `Authorization: Bearer
 * <token>`. Only its hash is stored. Without a token the answer is 401; a wrong token and
 * an order that does not exist are the same 404, so a caller learns nothing of which
 * orders exist. An API key is never a customer credential.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { currentOrderView, orderKind, type OrderView } from '../../actors/kinds/order-kind.js';
import { sameHash, secretHash } from '../auth/secret-hash.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';

const BEARER = /^Bearer ([A-Za-z0-9_-]{16,128})$/;

export function orderNotFound(): ApiError {
  return new ApiError(404, 'Order not found', 'NOT_FOUND');
}

/** The order the token opens, as its view; throws the 401 or 404 otherwise. */
export async function customerOrder(system: ActorSystem, orderId: string, authorization: string | undefined): Promise<OrderView> {
  return (await customerOrderOnClock(system, orderId, authorization)).view;
}

/**
 * customerOrder with the test clock the order runs on, read in the same look: a payment
 * started on the order runs on that clock too, and would otherwise read the order again.
 */
export async function customerOrderOnClock(
  system: ActorSystem,
  orderId: string,
  authorization: string | undefined,
): Promise<{ view: OrderView; clockId: string | undefined }> {
  const token = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  if (!token) throw new ApiError(401, 'Missing order token: send Authorization: Bearer <orderToken>');
  const doc = await system.views(orderKind).findOne({ _id: orderId }, { projection: { view: 1, clockId: 1 } });
  const view = doc?.view;
  if (!view || !sameHash(view.orderTokenHash, secretHash(token))) throw orderNotFound();
  return { view, clockId: doc?.clockId };
}

/** A merchant's own order in the key's environment, as it stands; another's, or one that does not exist, is the same 404. */
export async function merchantOrder(system: ActorSystem, account: Pick<MerchantAccount, 'merchantId' | 'environment'>, orderId: string): Promise<OrderView> {
  const doc = await system.views(orderKind).findOne({ _id: orderId, 'view.merchantId': account.merchantId, 'view.environment': account.environment });
  if (!doc) throw orderNotFound();
  return currentOrderView(doc);
}
