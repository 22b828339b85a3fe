/** Revolut: a retail transaction read with the web cookie and device id; the payee is the recipient's Revtag. */
import { z } from 'zod';
import { directionOfSigned, fiatFromMinorUnits } from './amounts.js';
import { headerValue, normalizeTag, paymentIdParams } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

export const revolutSession = z.object({ Cookie: headerValue, 'x-device-id': headerValue }).strict();

const transactions = z.array(
  z.object({
    id: z.string(),
    state: z.string(),
    amount: z.number(),
    currency: z.string(),
    createdDate: z.number().int(),
    recipient: z.object({ username: z.string() }),
  }),
);

export const revolut: PaymentPlatform<z.infer<typeof revolutSession>> = {
  id: 'revolut',
  actionType: 'transfer_revolut',
  session: revolutSession,
  params: paymentIdParams,
  paymentRequest: (session, params) => ({
    method: 'GET',
    path: `/api/retail/transaction/${encodeURIComponent(params.PAYMENT_ID!)}`,
    headers: { Cookie: session.Cookie, 'x-device-id': session['x-device-id'] },
  }),
  normalize(response, params) {
    const tx = parsePlatformResponse('revolut', transactions, response).find((row) => row.id === params.PAYMENT_ID);
    if (!tx) throw new PaymentNotFoundError('revolut answered without the transaction');
    return {
      paymentId: tx.id,
      amount: fiatFromMinorUnits(tx.amount),
      direction: directionOfSigned(tx.amount),
      payerId: null,
      currency: tx.currency.toUpperCase(),
      payeeId: normalizeTag(tx.recipient.username),
      timestampMs: tx.createdDate,
      completed: tx.state === 'COMPLETED',
    };
  },
};
