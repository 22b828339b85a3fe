/**
 * Venmo: a story (Venmo's word for a payment) read with the buyer's web cookie (or, on the
 * seller path, the maker's), with its note; the payee is the receiver's user id. Public stories of other people's payments read too, so the story's
 * sender must be the session's own account, read from Venmo's account endpoint.
 */
import { z } from 'zod';
import { VENMO } from '../../machines/platforms/index.js';
import { directionOfSigned, fiatFromText, millisFromIso } from './amounts.js';
import { accountRequest, paymentParts, type SessionOf } from './adapter-parts.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

const story = z.object({
  data: z.object({
    id: z.string(),
    date: z.string(),
    amount: z.string(),
    status: z.string(),
    note: z.string().nullish(),
    title: z.object({ sender: z.object({ id: z.string(), username: z.string() }), receiver: z.object({ id: z.string(), username: z.string() }) }),
  }),
});

const account = z.object({ data: z.object({ user: z.object({ id: z.string(), username: z.string() }) }) });

export const venmo: PaymentPlatform<SessionOf<typeof VENMO.payment>> = {
  ...paymentParts(VENMO),
  sellerPath: true,
  account: {
    request: accountRequest(VENMO.payment),
    read: (response) => parsePlatformResponse('venmo', account, response).data.user.id,
  },
  normalize(response, params) {
    const { data } = parsePlatformResponse('venmo', story, response);
    if (data.id !== params.PAYMENT_ID) throw new PaymentNotFoundError('venmo answered with another story');
    return {
      paymentId: data.id,
      amount: fiatFromText(data.amount),
      direction: directionOfSigned(data.amount),
      payerId: data.title.sender.id,
      currency: 'USD',
      payeeId: data.title.receiver.id,
      timestampMs: millisFromIso(data.date),
      completed: data.status === 'settled',
      memo: data.note ?? null,
    };
  },
};
