/** Zelle through Chase: QuickPay activity detail, asked for by form post with the web cookie; the payee is the recipient's Zelle token. */
import { z } from 'zod';
import { ZELLE_CHASE } from '../../machines/platforms/index.js';
import { fiatFromJsonNumber, millisFromIso } from './amounts.js';
import { paymentParts, type SessionOf } from './adapter-parts.js';
import { normalizeZelleToken } from './params.js';
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

export const zelleChase: PaymentPlatform<SessionOf<typeof ZELLE_CHASE.payment>> = {
  ...paymentParts(ZELLE_CHASE),
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
