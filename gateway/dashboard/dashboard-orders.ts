/**
 * The dashboard's order read and cancel (document 1: "not available to an API key"). The read
 * is the order with every attempt, newest first. The cancel first cancels the order's open
 * attempts, as the customer backing out would (a live attempt's intent is cancelled on chain,
 * freeing the maker's liquidity; a crypto attempt's provider request is cancelled), then the
 * order: CANCELLED, cancelledAt, ORDER_CANCELLED. An attempt that cannot be cancelled now (a
 * proof being verified or settled, a transfer being converted) refuses the whole cancel, 409
 * PAYMENT_NOT_CANCELLABLE, and the order stays open: cancelling could take money the customer
 * has sent.
 */
import { CommandRejectedError } from '../../actors/errors.js';
import { orderKind } from '../../actors/kinds/order-kind.js';
import { paymentKind } from '../../actors/kinds/payment-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { orderNotFound } from '../checkout/order-access.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import { NEWEST_FIRST } from '../paged-views.js';

export async function orderWithPayments(system: ActorSystem, account: MerchantAccount, orderId: string) {
  const doc = await system
    .views(orderKind)
    .findOne({ _id: orderId, 'view.merchantId': account.merchantId, 'view.environment': account.environment }, { projection: { view: 1 } });
  if (!doc) throw orderNotFound();
  const payments = await system.views(paymentKind).find({ 'view.orderId': orderId }, { sort: NEWEST_FIRST, projection: { view: 1 } });
  return { order: doc.view.order, payments: payments.map((payment) => payment.view.payment) };
}

export async function cancelOrder(system: ActorSystem, account: MerchantAccount, orderId: string, at: string) {
  const { order } = await orderWithPayments(system, account, orderId);
  if (order.status === 'FULFILLED' || order.status === 'CANCELLED') {
    throw new ApiError(409, `The order is ${order.status} and can no longer be cancelled`, 'ORDER_STATUS_NOT_ELIGIBLE');
  }
  const open = await system.views(paymentKind).find({ 'view.orderId': orderId, 'view.status': 'CREATED' }, { projection: { _id: 1 } });
  for (const { _id } of open) {
    try {
      await system.ask(paymentKind, _id, { type: 'CANCEL', reason: 'CUSTOMER', at });
    } catch (error) {
      // Ended meanwhile (settled, expired): nothing left to cancel. Settled, the order's own cancel below says so.
      if (!(error instanceof CommandRejectedError && error.code === 'PAYMENT_NOT_OPEN')) throw error;
    }
  }
  await system.ask(orderKind, orderId, { type: 'CANCEL', at });
  return orderWithPayments(system, account, orderId);
}
