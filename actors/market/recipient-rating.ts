/** A recipient's rating (machines/market/recipient-rating.ts) from the payment attempts to it this node has seen end. */
import { ratingOf } from '../../machines/market/index.js';
import { paymentKind } from '../kinds/payment-kind.js';
import type { ActorSystem } from '../runtime/actor-system.js';

export async function recipientRating(system: ActorSystem, payTo: string): Promise<number> {
  const payments = system.views(paymentKind);
  const [settled, unsettled] = await Promise.all([
    payments.count({ 'view.payTo': payTo, 'view.status': 'SETTLED' }),
    payments.count({ 'view.payTo': payTo, 'view.status': { $in: ['EXPIRED', 'FAILED'] } }),
  ]);
  return ratingOf(settled, unsettled);
}
