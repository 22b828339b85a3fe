/** Venmo: a story (Venmo's word for a payment) read with the buyer's web cookie; the payee is the receiver's user id. */
import { z } from 'zod';
import { fiatFromText, millisFromIso } from './amounts.js';
import { cookieSession, paymentIdParams } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const story = z.object({
  data: z.object({
    id: z.string(),
    date: z.string(),
    amount: z.string(),
    status: z.string(),
    title: z.object({ receiver: z.object({ id: z.string(), username: z.string() }) }),
  }),
});

export const venmo: PaymentPlatform<z.infer<typeof cookieSession>> = {
  id: 'venmo',
  actionType: 'transfer_venmo',
  session: cookieSession,
  params: paymentIdParams,
  paymentRequest: (session, params) => ({
    method: 'GET',
    path: `/api/stories/${encodeURIComponent(params.PAYMENT_ID!)}`,
    headers: { Cookie: session.Cookie },
  }),
  normalize(response, params) {
    const { data } = parsePlatformResponse('venmo', story, response);
    if (data.id !== params.PAYMENT_ID) throw new PaymentNotFoundError('venmo answered with another story');
    return {
      paymentId: data.id,
      amount: fiatFromText(data.amount),
      currency: 'USD',
      payeeId: data.title.receiver.id,
      timestampMs: millisFromIso(data.date),
      completed: data.status === 'settled',
    };
  },
};
