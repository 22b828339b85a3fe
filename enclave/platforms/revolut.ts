/** Revolut: a retail transaction read with the web cookie and device id; the payee is the recipient's Revtag. */
import { z } from 'zod';
import { REVOLUT } from '../../machines/platforms/index.js';
import { directionOfSigned, fiatFromMinorUnits } from './amounts.js';
import { paymentParts, type SessionOf } from './adapter-parts.js';
import { normalizeTag } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

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

export const revolut: PaymentPlatform<SessionOf<typeof REVOLUT.payment>> = {
  ...paymentParts(REVOLUT),
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
