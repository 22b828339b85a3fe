/** Chime: a Pay Anyone transfer read with the web cookie; the payee is the recipient's $ChimeSign. */
import { z } from 'zod';
import { CHIME } from '../../machines/platforms/index.js';
import { directionOfSigned, fiatFromText, millisFromIso } from './amounts.js';
import { paymentParts, type SessionOf } from './adapter-parts.js';
import { normalizeTag } from './params.js';
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

export const chime: PaymentPlatform<SessionOf<typeof CHIME.payment>> = {
  ...paymentParts(CHIME),
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
