/**
 * Wise: a transfer of the session's profile, read with the web cookie and access token:
 * one it sent, or on the seller path one sent to it by Wisetag; the payee is the
 * recipient's Wise profile id. Wise writes amounts as JSON numbers and times in UTC
 * without an offset.
 */
import { z } from 'zod';
import { WISE } from '../../machines/platforms/index.js';
import { fiatFromJsonNumber } from './amounts.js';
import { accountRequest, paymentParts, type SessionOf } from './adapter-parts.js';
import { PaymentNotFoundError, PlatformResponseError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const transfer = z.object({
  id: z.number(),
  status: z.string(),
  targetValue: z.number(),
  targetCurrency: z.string(),
  created: z.string(),
  /** Set when the recipient is a Wise user paid by Wisetag: their profile, the same for every sender. */
  targetProfileId: z.number(),
  /** What the sender wrote for the recipient to see. */
  reference: z.string().nullish(),
});

/** The session's profiles: Wisetags, and so the payments the seller path reads, belong to the personal one. */
const profiles = z.array(z.object({ id: z.number(), type: z.string() }));

function personalProfile(response: unknown): string {
  const personal = parsePlatformResponse('wise', profiles, response).find((profile) => profile.type.toUpperCase() === 'PERSONAL');
  if (!personal) throw new PlatformResponseError('wise shows no personal profile for this session');
  return String(personal.id);
}

/** `2026-11-23 10:04:05`, which Wise means as UTC. */
export function millisFromWiseTime(text: string): number {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text);
  if (!match) throw new PlatformResponseError('wise wrote a timestamp this client cannot read');
  return Date.parse(`${match[1]}T${match[2]}Z`);
}

export const wise: PaymentPlatform<SessionOf<typeof WISE.payment>> = {
  ...paymentParts(WISE),
  sellerPath: true,
  account: { request: accountRequest(WISE.payment), read: personalProfile },
  normalize(response, params) {
    const tx = parsePlatformResponse('wise', transfer, response);
    if (String(tx.id) !== params.PAYMENT_ID) throw new PaymentNotFoundError('wise answered with another transfer');
    return {
      paymentId: String(tx.id),
      amount: fiatFromJsonNumber(tx.targetValue),
      // The path names the session's own profile (Wise refuses another's): a transfer to that profile is money it received.
      direction: String(tx.targetProfileId) === params.PROFILE_ID ? 'INCOMING' : 'OUTGOING',
      payerId: null,
      currency: tx.targetCurrency.toUpperCase(),
      payeeId: String(tx.targetProfileId),
      timestampMs: millisFromWiseTime(tx.created),
      // The transfer's own state, the same seen from either side.
      completed: tx.status === 'outgoing_payment_sent',
      memo: tx.reference ?? null,
    };
  },
};
