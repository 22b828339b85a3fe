/** Chime: a Pay Anyone transfer read with the web cookie; the payee is the recipient's $ChimeSign. */
import { z } from 'zod';
import { directionOfSigned, fiatFromText, millisFromIso } from './amounts.js';
import { cookieSession, normalizeTag, paymentIdParams } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const transaction = z.object({
  transaction: z.object({
    id: z.string(),
    status: z.string(),
    amount: z.string(),
    transaction_date: z.string(),
    recipient: z.object({ chime_sign: z.string() }),
  }),
});

export const chime: PaymentPlatform<z.infer<typeof cookieSession>> = {
  id: 'chime',
  actionType: 'transfer_chime',
  session: cookieSession,
  params: paymentIdParams,
  paymentRequest: (session, params) => ({
    method: 'GET',
    path: `/api/v1/transactions/${encodeURIComponent(params.PAYMENT_ID!)}`,
    headers: { Cookie: session.Cookie },
  }),
  normalize(response, params) {
    const { transaction: tx } = parsePlatformResponse('chime', transaction, response);
    if (tx.id !== params.PAYMENT_ID) throw new PaymentNotFoundError('chime answered with another transaction');
    return {
      paymentId: tx.id,
      amount: fiatFromText(tx.amount),
      direction: directionOfSigned(tx.amount),
      payerId: null,
      currency: 'USD',
      payeeId: normalizeTag(tx.recipient.chime_sign),
      timestampMs: millisFromIso(tx.transaction_date),
      completed: tx.status === 'Completed',
    };
  },
};
