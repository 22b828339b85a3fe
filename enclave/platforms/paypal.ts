/** PayPal Personal: an activity's detail read with the web cookie; the payee is the counterparty's e-mail. */
import { z } from 'zod';
import { PAYPAL } from '../../machines/platforms/index.js';
import { directionOfSigned, fiatFromText, millisFromIso } from './amounts.js';
import { paymentParts, type SessionOf } from './adapter-parts.js';
import { normalizeEmail } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const activity = z.object({
  data: z.object({
    transactionId: z.string(),
    status: z.string(),
    amount: z.object({ value: z.string(), currencyCode: z.string() }),
    transactionTime: z.string(),
    counterparty: z.object({ email: z.string() }),
  }),
});

export const paypal: PaymentPlatform<SessionOf<typeof PAYPAL.payment>> = {
  ...paymentParts(PAYPAL),
  normalize(response, params) {
    const { data } = parsePlatformResponse('paypal', activity, response);
    if (data.transactionId !== params.PAYMENT_ID) throw new PaymentNotFoundError('paypal answered with another activity');
    return {
      paymentId: data.transactionId,
      amount: fiatFromText(data.amount.value),
      // PayPal signs an activity's amount: negative for money the account sent, so a payment the maker sent the buyer reads as incoming.
      direction: directionOfSigned(data.amount.value),
      payerId: null,
      currency: data.amount.currencyCode.toUpperCase(),
      payeeId: normalizeEmail(data.counterparty.email),
      timestampMs: millisFromIso(data.transactionTime),
      completed: data.status === 'COMPLETED',
    };
  },
};
