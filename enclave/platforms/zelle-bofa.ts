/** Zelle through Bank of America: activity detail read with the web cookie; the payee is the recipient's Zelle token. */
import { z } from 'zod';
import { ZELLE_BOFA } from '../../machines/platforms/index.js';
import { fiatFromText, millisFromIso } from './amounts.js';
import { paymentParts, type SessionOf } from './adapter-parts.js';
import { normalizeZelleToken } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const activity = z.object({
  transactionDetail: z.object({
    confirmationNumber: z.string(),
    status: z.string(),
    transactionType: z.string(),
    amount: z.object({ value: z.string(), currency: z.string() }),
    transactionDate: z.string(),
    recipient: z.object({ token: z.string() }),
  }),
});

export const zelleBofa: PaymentPlatform<SessionOf<typeof ZELLE_BOFA.payment>> = {
  ...paymentParts(ZELLE_BOFA),
  normalize(response, params) {
    const { transactionDetail: tx } = parsePlatformResponse('zelle-bofa', activity, response);
    if (tx.confirmationNumber !== params.PAYMENT_ID) throw new PaymentNotFoundError('bank of america answered with another payment');
    return {
      paymentId: tx.confirmationNumber,
      amount: fiatFromText(tx.amount.value),
      direction: tx.transactionType === 'SENT' ? 'OUTGOING' : 'INCOMING',
      payerId: null,
      currency: tx.amount.currency.toUpperCase(),
      payeeId: normalizeZelleToken(tx.recipient.token),
      timestampMs: millisFromIso(tx.transactionDate),
      completed: tx.status === 'COMPLETED',
    };
  },
};
