/** Zelle through Chase: QuickPay activity detail, asked for by form post with the web cookie; the payee is the recipient's Zelle token. */
import { z } from 'zod';
import { fiatFromJsonNumber, millisFromIso } from './amounts.js';
import { cookieSession, normalizeZelleToken, paymentIdParams } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const detail = z.object({
  paymentDetail: z.object({
    id: z.string(),
    status: z.string(),
    paymentType: z.string(),
    amount: z.number(),
    recipientToken: z.string(),
    statusDate: z.string(),
  }),
});

export const zelleChase: PaymentPlatform<z.infer<typeof cookieSession>> = {
  id: 'zelle-chase',
  actionType: 'transfer_zelle_chase',
  session: cookieSession,
  params: paymentIdParams,
  paymentRequest: (session, params) => ({
    method: 'POST',
    path: '/svc/rr/payments/v1/quickpay/payment/activity/detail/list',
    headers: { Cookie: session.Cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ paymentId: params.PAYMENT_ID! }).toString(),
  }),
  normalize(response, params) {
    const { paymentDetail } = parsePlatformResponse('zelle-chase', detail, response);
    if (paymentDetail.id !== params.PAYMENT_ID) throw new PaymentNotFoundError('chase answered with another payment');
    return {
      paymentId: paymentDetail.id,
      amount: fiatFromJsonNumber(paymentDetail.amount),
      direction: paymentDetail.paymentType === 'SEND' ? 'OUTGOING' : 'INCOMING',
      payerId: null,
      currency: 'USD',
      payeeId: normalizeZelleToken(paymentDetail.recipientToken),
      timestampMs: millisFromIso(paymentDetail.statusDate),
      completed: paymentDetail.status === 'COMPLETED',
    };
  },
};
