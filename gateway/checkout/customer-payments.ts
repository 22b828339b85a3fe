/** A payment as the customer reads it: only through its own order, with the hosted read's error fields. */
import { paymentKind, type PaymentView } from '../../actors/kinds/payment-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { CheckoutPayment } from '../../machines/payment/index.js';
import { ApiError } from '../envelope.js';

export async function customerPayment(system: ActorSystem, orderId: string, paymentId: string): Promise<PaymentView> {
  const doc = await system.views(paymentKind).findOne({ _id: paymentId, 'view.orderId': orderId }, { projection: { view: 1 } });
  if (!doc) throw new ApiError(404, 'Payment not found', 'NOT_FOUND');
  return doc.view;
}

/** document 1: errorCode and errorMessage are set by the hosted read only, and null on list rows. */
export function hostedPayment(view: PaymentView): CheckoutPayment {
  return { ...view.payment, errorCode: view.hosted.errorCode, errorMessage: view.hosted.errorMessage };
}
