/**
 * Cash App: the session's activity page, read by replaying the canonical MY_ACTIVITY_WEB_V2
 * request with its session cookie (the buyer's, or on the seller path the maker's); the
 * payment is the row whose token is PAYMENT_ID, the payee is the recipient's cashtag, and
 * the page's customer is the session's own account.
 */
import { z } from 'zod';
import { CASHAPP } from '../../machines/platforms/index.js';
import { fiatFromMinorUnits } from './amounts.js';
import { accountRequest, paymentParts, type SessionOf } from './adapter-parts.js';
import { normalizeTag } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

export { cashAppActivityRequest } from './session-formats.js';

const activityPage = z.object({
  customer: z.object({ customer_token: z.string(), cashtag: z.string() }),
  activity_rows: z.array(
    z.object({
      payment_history_inputs_row: z
        .object({
          payment: z.object({
            token: z.string(),
            state: z.string(),
            amount: z.object({ amount: z.number(), currency_code: z.string() }),
            display_date: z.number().int(),
            sender: z.object({ cashtag: z.string() }),
            recipient: z.object({ cashtag: z.string() }),
            note: z.string().nullish(),
          }),
        })
        .optional(),
    }),
  ),
});

export type CashAppActivityPage = z.infer<typeof activityPage>;

export function readCashAppActivity(response: unknown): CashAppActivityPage {
  return parsePlatformResponse('cashapp', activityPage, response);
}

export const cashapp: PaymentPlatform<SessionOf<typeof CASHAPP.payment>> = {
  ...paymentParts(CASHAPP),
  sellerPath: true,
  account: {
    request: accountRequest(CASHAPP.payment),
    read: (response) => normalizeTag(readCashAppActivity(response).customer.cashtag),
  },
  normalize(response, params) {
    const page = readCashAppActivity(response);
    const payment = page.activity_rows.map((row) => row.payment_history_inputs_row?.payment).find((p) => p?.token === params.PAYMENT_ID);
    if (!payment) throw new PaymentNotFoundError("the payment is not on the buyer's Cash App activity page");
    return {
      paymentId: payment.token,
      amount: fiatFromMinorUnits(payment.amount.amount),
      // The page is the session's own activity, and names its customer: a row it sent is outgoing.
      direction: normalizeTag(payment.sender.cashtag) === normalizeTag(page.customer.cashtag) ? 'OUTGOING' : 'INCOMING',
      payerId: null,
      currency: payment.amount.currency_code.toUpperCase(),
      payeeId: normalizeTag(payment.recipient.cashtag),
      timestampMs: payment.display_date,
      completed: payment.state === 'COMPLETE',
      memo: payment.note ?? null,
    };
  },
};
