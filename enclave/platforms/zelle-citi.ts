/** Zelle through Citi: a past transfer read with the web cookie; the payee is the recipient's Zelle token. */
import { z } from 'zod';
import { fiatFromText, millisFromIso } from './amounts.js';
import { cookieSession, normalizeZelleToken, paymentIdParams } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const transfer = z.object({
  transfer: z.object({
    referenceNumber: z.string(),
    statusDescription: z.string(),
    transferType: z.string(),
    transferAmount: z.string(),
    transferDate: z.string(),
    payeeToken: z.string(),
  }),
});

export const zelleCiti: PaymentPlatform<z.infer<typeof cookieSession>> = {
  id: 'zelle-citi',
  actionType: 'transfer_zelle_citi',
  session: cookieSession,
  params: paymentIdParams,
  paymentRequest: (session, params) => ({
    method: 'GET',
    path: `/gcgapi/prod/public/v1/p2ppayments/pastActivityTransactions/${encodeURIComponent(params.PAYMENT_ID!)}`,
    headers: { Cookie: session.Cookie },
  }),
  normalize(response, params) {
    const { transfer: tx } = parsePlatformResponse('zelle-citi', transfer, response);
    if (tx.referenceNumber !== params.PAYMENT_ID) throw new PaymentNotFoundError('citi answered with another transfer');
    return {
      paymentId: tx.referenceNumber,
      amount: fiatFromText(tx.transferAmount),
      direction: tx.transferType === 'OUTGOING' ? 'OUTGOING' : 'INCOMING',
      payerId: null,
      currency: 'USD',
      payeeId: normalizeZelleToken(tx.payeeToken),
      timestampMs: millisFromIso(tx.transferDate),
      completed: tx.statusDescription === 'Delivered',
    };
  },
};
