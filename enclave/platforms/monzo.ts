/** Monzo: a transaction read with the buyer's API token; the payee is the counterparty's sort code and account number. */
import { z } from 'zod';
import { MONZO } from '../../machines/platforms/index.js';
import { directionOfSigned, fiatFromMinorUnits, millisFromIso } from './amounts.js';
import { paymentParts, type SessionOf } from './adapter-parts.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const transaction = z.object({
  transaction: z.object({
    id: z.string(),
    amount: z.number(),
    currency: z.string(),
    created: z.string(),
    settled: z.string(),
    decline_reason: z.string().optional(),
    counterparty: z.object({ sort_code: z.string(), account_number: z.string(), name: z.string().optional() }),
  }),
});

export const monzo: PaymentPlatform<SessionOf<typeof MONZO.payment>> = {
  ...paymentParts(MONZO),
  normalize(response, params) {
    const { transaction: tx } = parsePlatformResponse('monzo', transaction, response);
    if (tx.id !== params.PAYMENT_ID) throw new PaymentNotFoundError('monzo answered with another transaction');
    return {
      paymentId: tx.id,
      amount: fiatFromMinorUnits(tx.amount),
      direction: directionOfSigned(tx.amount),
      payerId: null,
      currency: tx.currency.toUpperCase(),
      payeeId: `${tx.counterparty.sort_code.replace(/\D/g, '')}${tx.counterparty.account_number.replace(/\D/g, '')}`,
      timestampMs: millisFromIso(tx.created),
      // A settled transaction with no decline reason has moved the money.
      completed: tx.settled !== '' && tx.decline_reason === undefined,
    };
  },
};
