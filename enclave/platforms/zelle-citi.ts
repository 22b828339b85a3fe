/** Zelle through Citi: a past transfer read with the web cookie; the payee is the recipient's Zelle token. */
import { z } from 'zod';
import { ZELLE_CITI } from '../../machines/platforms/index.js';
import { fiatFromText, millisFromIso } from './amounts.js';
import { paymentParts, type SessionOf } from './adapter-parts.js';
import { normalizeZelleToken } from './params.js';
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

export const zelleCiti: PaymentPlatform<SessionOf<typeof ZELLE_CITI.payment>> = {
  ...paymentParts(ZELLE_CITI),
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
