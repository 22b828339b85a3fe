/** PayPal Business: the reporting API's transaction search with the business's OAuth token; the payee is the receiver's e-mail. */
import { z } from 'zod';
import { directionOfSigned, fiatFromText, millisFromIso } from './amounts.js';
import { bearerSession, normalizeEmail, paymentIdParams } from './params.js';
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

export const paypalBusiness: PaymentPlatform<z.infer<typeof bearerSession>> = {
  id: 'paypal-business',
  actionType: 'transfer_paypal_business',
  session: bearerSession,
  params: paymentIdParams,
  paymentRequest: (session, params) => ({
    method: 'GET',
    path: `/v1/reporting/transactions?${new URLSearchParams({ transaction_id: params.PAYMENT_ID!, fields: 'transaction_info,payee_info' })}`,
    headers: { Authorization: session.Authorization },
  }),
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
