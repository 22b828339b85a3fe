/**
 * Wise: a transfer of the buyer's profile, read with the web cookie and access token;
 * the payee is the recipient's Wise profile id. Wise writes amounts as JSON numbers and
 * times in UTC without an offset.
 */
import { z } from 'zod';
import { WISE } from '../../machines/platforms/index.js';
import { fiatFromJsonNumber } from './amounts.js';
import { paymentParts, type SessionOf } from './adapter-parts.js';
import { PaymentNotFoundError, PlatformResponseError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const transfer = z.object({
  id: z.number(),
  status: z.string(),
  targetValue: z.number(),
  targetCurrency: z.string(),
  created: z.string(),
  /** Set when the recipient is a Wise user paid by Wisetag: their profile, the same for every sender. */
  targetProfileId: z.number(),
});

/** `2026-11-23 10:04:05`, which Wise means as UTC. */
export function millisFromWiseTime(text: string): number {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text);
  if (!match) throw new PlatformResponseError('wise wrote a timestamp this client cannot read');
  return Date.parse(`${match[1]}T${match[2]}Z`);
}

export const wise: PaymentPlatform<SessionOf<typeof WISE.payment>> = {
  ...paymentParts(WISE),
  normalize(response, params) {
    const tx = parsePlatformResponse('wise', transfer, response);
    if (String(tx.id) !== params.PAYMENT_ID) throw new PaymentNotFoundError('wise answered with another transfer');
    return {
      paymentId: String(tx.id),
      amount: fiatFromJsonNumber(tx.targetValue),
      // A transfer of the session's own profile (the path names it, and Wise refuses another's) is money it sent.
      direction: 'OUTGOING',
      payerId: null,
      currency: tx.targetCurrency.toUpperCase(),
      payeeId: String(tx.targetProfileId),
      timestampMs: millisFromWiseTime(tx.created),
      completed: tx.status === 'outgoing_payment_sent',
    };
  },
};
