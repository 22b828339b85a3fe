/**
 * Cash App: the buyer's activity page, read by replaying the canonical MY_ACTIVITY_WEB_V2
 * request with the buyer's session cookie; the payment is the row whose token is
 * PAYMENT_ID, and the payee is the recipient's cashtag.
 */
import { z } from 'zod';
import { fiatFromMinorUnits } from './amounts.js';
import { headerValue, normalizeTag, paymentIdParams } from './params.js';
import { PaymentNotFoundError, parsePlatformResponse, type PaymentPlatform } from './platform.js';

/** The one request body the enclave replays; anything else is refused, so a client cannot aim the replay elsewhere. */
export const cashAppActivityRequest = z
  .object({
    activity_scope: z.literal('MY_ACTIVITY_WEB_V2'),
    page_size: z.number().int().min(1).max(100),
    request_context: z.object({}).strict().optional(),
  })
  .strict();

/** Headers the buyer's client may add to the replay; Cookie, Host and the body's headers are the enclave's. */
const REPLAYABLE_HEADERS = /^(x-[a-z0-9-]+|accept-language|user-agent)$/i;

export const cashAppSession = z
  .object({
    sessionCookie: headerValue,
    requestPayload: z.string().transform((text, ctx) => {
      try {
        const parsed = cashAppActivityRequest.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data;
      } catch {
        // Reported below like any other non-canonical payload.
      }
      ctx.addIssue({ code: 'custom', message: 'must be the canonical MY_ACTIVITY_WEB_V2 request body' });
      return z.NEVER;
    }),
    requestHeaders: z
      .record(z.string().regex(REPLAYABLE_HEADERS, 'only x-*, accept-language and user-agent headers may be replayed'), headerValue)
      .optional(),
  })
  .strict();

export type CashAppSession = z.infer<typeof cashAppSession>;

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

export function cashAppActivityRequestFor(session: CashAppSession) {
  return {
    method: 'POST' as const,
    path: '/cash-app/activity/v1.0/page',
    headers: { ...(session.requestHeaders ?? {}), Cookie: session.sessionCookie, 'Content-Type': 'application/json' },
    body: JSON.stringify(session.requestPayload),
  };
}

export const cashapp: PaymentPlatform<CashAppSession> = {
  id: 'cashapp',
  actionType: 'transfer_cashapp',
  session: cashAppSession,
  params: paymentIdParams,
  paymentRequest: (session) => cashAppActivityRequestFor(session),
  normalize(response, params) {
    const page = readCashAppActivity(response);
    const payment = page.activity_rows.map((row) => row.payment_history_inputs_row?.payment).find((p) => p?.token === params.PAYMENT_ID);
    if (!payment) throw new PaymentNotFoundError('the payment is not on the buyer\'s Cash App activity page');
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
    };
  },
};
