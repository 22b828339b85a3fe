/**
 * What the page says when a call is refused, in the customer's words, and what they can do
 * about it: wait and retry (the service is down for a while), fix what they typed, or
 * nothing at all (the link can never work), where "try again" would only send them round.
 */
import { CheckoutError } from './api.js';

export const PAYMENTS_UNAVAILABLE = 'Payments are unavailable right now, try again shortly.';

/** document 1's 503 codes: a side the payment needs cannot answer for now. */
const UNAVAILABLE = new Set(['LIVE_PAYMENTS_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'CONVERSION_PROVIDER_UNAVAILABLE', 'RATE_UNAVAILABLE']);

/** A refusal that may pass by itself: the same request may work a little later. */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof CheckoutError) return error.status === 503 || UNAVAILABLE.has(error.code ?? '');
  // fetch rejects with a TypeError when the node cannot be reached at all.
  return error instanceof TypeError;
}

/** Why the link can never work, or null when it still may: no token, a wrong one, no such order, or an order that takes no payment. */
export function deadLink(error: unknown): string | null {
  if (!(error instanceof CheckoutError)) return null;
  if (error.status === 401) return 'This checkout link is incomplete. Ask the shop for a new link.';
  // A wrong token and an order that does not exist are the same 404 (gateway/checkout/order-access.ts).
  if (error.status === 404) return 'No order matches this link. Ask the shop for a new link.';
  if (error.code === 'ORDER_NOT_PAYABLE') return 'This order can no longer be paid.';
  return null;
}

export function describe(error: unknown): string {
  if (isUnavailable(error))
    return error instanceof CheckoutError ? PAYMENTS_UNAVAILABLE : 'We could not reach the checkout. Check your connection and try again.';
  if (!(error instanceof CheckoutError)) return 'Something went wrong on this page. Reload it and try again.';
  switch (error.code) {
    case 'NO_LIQUIDITY':
      return 'No one can take this payment method right now. Try another one.';
    case 'PAYMENT_NOT_OPEN':
      return 'This payment already ended.';
    case 'PAYMENT_IN_PROGRESS':
      return 'A payment on this order is already under way. Finish it or choose another way to pay.';
    case 'AMOUNT_LOCKED':
      return 'The amount can no longer change: a payment on it is under way.';
    case 'AMOUNT_CONFLICT':
      return 'The amount changed in another window. Check it and try again.';
    case null:
      return error.status === 400 ? invalid(error) : error.message;
    default:
      // The node's own message already says what is wrong in words (an amount out of range, a currency not taken).
      return error.message;
  }
}

/** A 400 without a code is document 1's validation shape: say which field and what is wrong with it. */
function invalid(error: CheckoutError): string {
  const [field, problems] = Object.entries(error.fieldErrors)[0] ?? [];
  if (field === 'amount') return 'Enter the amount as a number, such as 20 or 20.50.';
  if (field && problems?.[0]) return `The ${field} ${problems[0]}.`;
  return error.formErrors[0] ?? 'The page sent something the checkout could not read. Reload it and try again.';
}
