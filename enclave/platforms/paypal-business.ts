/** PayPal Business: the reporting API's transaction search with the business's OAuth token; the payee is the receiver's e-mail. */
import { z } from 'zod';
import { PAYPAL_BUSINESS } from '../../machines/platforms/index.js';
import { directionOfSigned, fiatFromText, millisFromIso } from './amounts.js';
import { paymentParts, type SessionOf } from './adapter-parts.js';
import { normalizeEmail } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const search = z.object({
  transaction_details: z.array(
    z.object({
      transaction_info: z.object({
        transaction_id: z.string(),
        transaction_status: z.string(),
        transaction_amount: z.object({ currency_code: z.string(), value: z.string() }),
        transaction_initiation_date: z.string(),
      }),
      payee_info: z.object({ email_address: z.string() }),
    }),
  ),
});

export const paypalBusiness: PaymentPlatform<SessionOf<typeof PAYPAL_BUSINESS.payment>> = {
  ...paymentParts(PAYPAL_BUSINESS),
  normalize(response, params) {
    const row = parsePlatformResponse('paypal-business', search, response).transaction_details.find(
      (detail) => detail.transaction_info.transaction_id === params.PAYMENT_ID,
    );
    if (!row) throw new PaymentNotFoundError('paypal answered without the transaction');
    const info = row.transaction_info;
    return {
      paymentId: info.transaction_id,
      amount: fiatFromText(info.transaction_amount.value),
      direction: directionOfSigned(info.transaction_amount.value),
      payerId: null,
      currency: info.transaction_amount.currency_code.toUpperCase(),
      payeeId: normalizeEmail(row.payee_info.email_address),
      timestampMs: millisFromIso(info.transaction_initiation_date),
      // S is success; P pending, V reversed, D denied.
      completed: info.transaction_status === 'S',
    };
  },
};
