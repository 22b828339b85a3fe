/**
 * The simulator as a buyer's own banking app, over HTTP: a checkout page in a real browser,
 * on another loopback origin, signs in to a platform, sends the maker a payment and sees
 * what it sent, then hands the session material and proof params to the attestation
 * service, as a buyer's client does after paying on the real platform. In-process tests
 * do the same with openSession and recordPayment; a browser cannot call those.
 */
import type { Context } from 'koa';
import Router, { type RouterMiddleware } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { z } from 'zod';
import { formatFiat, MoneyFormatError, parseFiat } from '../../machines/money.js';
import { buyerAccount, buyerPlatform, proofParams, type BuyerPlatform } from './buyer-platforms.js';
import { loopbackCors } from './loopback-cors.js';
import type { SimAccount, SimPayment } from './records.js';

/** What the buyer API needs of the simulator: its sessions, as tests use them in-process. */
export interface BuyerSessions {
  openSession(platform: string, account: SimAccount): Record<string, unknown>;
  sessionOf(platform: string, material: Record<string, unknown>): { account: SimAccount; payments: SimPayment[] } | undefined;
  recordPayment(platform: string, material: Record<string, unknown>, payment: SimPayment): void;
}

/** Higher than any platform lets one send at once, and low enough that every platform's number types hold it exactly. */
const MAX_CENTS = 100_000_000n;

const material = z.record(z.string(), z.string());
const sessionRequest = z.object({
  platform: z.string(),
  username: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,32}$/, 'must be 1 to 32 letters, digits, dots, underscores or hyphens')
    .optional(),
  /** Signing in to an account that exists already (a Venmo user id someone gave as theirs); a new one when left out. */
  accountId: z
    .string()
    .regex(/^\d{1,20}$/, 'must be 1 to 20 digits')
    .optional(),
});
const paymentRequest = z.object({
  platform: z.string(),
  material,
  payee: z.string().trim().min(1).max(256),
  amount: z.string(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an upper-case ISO 4217 code'),
  note: z.string().max(280).optional(),
});
const listRequest = z.object({ platform: z.string(), material });

class BuyerApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Everything under /_buyer/; other paths go on to the platforms. `sessions` is a thunk: the simulator exists only once its server listens. */
export function buyerApi(sessions: () => BuyerSessions): RouterMiddleware {
  const cors = loopbackCors();
  // Its own parser, so a malformed body is answered in this API's shape, with CORS headers the page can read.
  const parseJson = bodyParser({
    enableTypes: ['json'],
    onError: (error) => {
      throw new BuyerApiError(400, 'INVALID_JSON', `the body could not be read as JSON: ${error.message}`);
    },
  });
  const dispatch = buyerRoutes(sessions).routes();
  const notFound = (ctx: Context) => async () => {
    throw new BuyerApiError(404, 'NOT_FOUND', `no ${ctx.method} ${ctx.path} here`);
  };
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/_buyer/')) return next();
    await cors(ctx, async () => {
      try {
        await parseJson(ctx, () => dispatch(ctx, notFound(ctx)));
      } catch (error) {
        // Answered here, not by Koa, whose error page would drop the CORS headers.
        if (!(error instanceof BuyerApiError)) throw error;
        ctx.status = error.status;
        ctx.body = { error: { code: error.code, message: error.message } };
      }
    });
  };
}

function buyerRoutes(sessions: () => BuyerSessions): Router {
  const router = new Router({ prefix: '/_buyer' });

  router.post('/sessions', (ctx) => {
    const { platform, username, accountId } = parse(sessionRequest, ctx);
    const account = buyerAccount(platformOf(platform), username, accountId);
    ctx.status = 201;
    ctx.body = { platform, account, material: sessions().openSession(platform, account) };
  });

  router.post('/payments', (ctx) => {
    const request = parse(paymentRequest, ctx);
    const platform = platformOf(request.platform);
    const amount = centsOf(request.amount);
    if (platform.currency && request.currency !== platform.currency) {
      throw new BuyerApiError(400, 'UNSUPPORTED_CURRENCY', `${request.platform} moves only ${platform.currency}`);
    }
    if (platform.payee && !platform.payee.test(request.payee)) {
      throw new BuyerApiError(400, 'INVALID_PAYEE', `${request.platform} does not name a recipient like ${JSON.stringify(request.payee)}`);
    }
    const { account } = sessionOf(sessions(), request.platform, request.material);
    const payment: SimPayment = {
      paymentId: platform.paymentId(),
      amount,
      currency: request.currency,
      payee: request.payee,
      timestampMs: Date.now(),
      status: 'completed',
      direction: 'outgoing',
      ...(request.note === undefined ? {} : { note: request.note }),
    };
    sessions().recordPayment(request.platform, request.material, payment);
    ctx.status = 201;
    ctx.body = { paymentId: payment.paymentId, timestampMs: payment.timestampMs, proofParams: proofParams(platform, payment.paymentId, account) };
  });

  router.post('/payments/list', (ctx) => {
    const request = parse(listRequest, ctx);
    const platform = platformOf(request.platform);
    const { account, payments } = sessionOf(sessions(), request.platform, request.material);
    ctx.body = {
      payments: payments.map((p) => ({
        paymentId: p.paymentId,
        payee: p.payee,
        amount: formatFiat(p.amount),
        currency: p.currency,
        note: p.note ?? null,
        timestampMs: p.timestampMs,
        status: p.status,
        direction: p.direction ?? 'outgoing',
        proofParams: proofParams(platform, p.paymentId, account),
      })),
    };
  });

  return router;
}

function parse<T>(schema: z.ZodType<T>, ctx: Context): T {
  const parsed = schema.safeParse(ctx.request.body);
  if (parsed.success) return parsed.data;
  throw new BuyerApiError(400, 'INVALID_REQUEST', parsed.error.issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; '));
}

function platformOf(id: string): BuyerPlatform {
  const platform = buyerPlatform(id);
  if (!platform) throw new BuyerApiError(400, 'UNKNOWN_PLATFORM', `the simulator takes no payments on ${JSON.stringify(id)}`);
  return platform;
}

function sessionOf(sessions: BuyerSessions, platform: string, material: Record<string, unknown>) {
  const session = sessions.sessionOf(platform, material);
  if (!session) throw new BuyerApiError(401, 'SESSION_NOT_FOUND', `no open ${platform} session for this material`);
  return session;
}

function centsOf(amount: string): bigint {
  let cents: bigint;
  try {
    cents = parseFiat(amount);
  } catch (error) {
    if (error instanceof MoneyFormatError) throw new BuyerApiError(400, 'INVALID_AMOUNT', error.message);
    throw error;
  }
  if (cents <= 0n || cents > MAX_CENTS) throw new BuyerApiError(400, 'INVALID_AMOUNT', `an amount is above zero and at most ${formatFiat(MAX_CENTS)}`);
  return cents;
}
