/**
 * A local stand-in for the payment platforms, for the embedded default and the tests:
 * one loopback HTTP server answering each platform's paths, under /<platform>/, in the
 * platform's own shape. A session is opened for an account and handed back as the
 * session material a buyer's client would capture; payments are recorded against it.
 * Requests without a live session get 401, as from a platform whose cookie expired.
 * Under /_buyer/ a browser plays the buyer over HTTP instead (buyer-api.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { cashAppActivityRequest } from '../platforms/cashapp.js';
import { buyerApi } from './buyer-api.js';
import { renderIdentity, renderPayment, type SimAccount, type SimPayment } from './records.js';

/** Which request headers carry a platform's session; together they name the session. */
const CREDENTIAL_HEADERS: Record<string, string[]> = {
  venmo: ['cookie'],
  cashapp: ['cookie'],
  monzo: ['authorization'],
  wise: ['cookie', 'x-access-token'],
  revolut: ['cookie', 'x-device-id'],
  chime: ['cookie'],
  'zelle-chase': ['cookie'],
  'zelle-bofa': ['cookie'],
  'zelle-citi': ['cookie'],
  paypal: ['cookie'],
  'paypal-business': ['authorization'],
  alipay: ['cookie'],
};

interface SimSession {
  account: SimAccount;
  payments: Map<string, SimPayment>;
}

export class PlatformSimulator {
  readonly url: string;
  readonly #server: Server;
  readonly #sessions = new Map<string, SimSession>();
  readonly #outages = new Map<string, number>();
  /** Payments anyone signed in may read (Venmo's public stories), by platform and id. */
  readonly #public = new Map<string, Map<string, { record: SimPayment; account: SimAccount }>>();
  /** Requests served, by platform: tests check that a refused request never reached a platform. */
  readonly requests = new Map<string, number>();

  private constructor(server: Server, url: string) {
    this.#server = server;
    this.url = url;
  }

  static async start(): Promise<PlatformSimulator> {
    let simulator: PlatformSimulator | undefined;
    const app = new Koa();
    app.use(buyerApi(() => simulator!));
    app.use(bodyParser({ enableTypes: ['json', 'form', 'text'] }));
    app.use(
      routes(
        (ctx) => simulator!.#route(ctx),
        (platform) => simulator!.#public.get(platform) ?? new Map(),
      ).routes(),
    );
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    simulator = new PlatformSimulator(server, `http://127.0.0.1:${port}`);
    return simulator;
  }

  baseUrl(platform: string): string {
    return `${this.url}/${platform}`;
  }

  /** A live session of `account`, as the session material the enclave expects for the platform. */
  openSession(platform: string, account: SimAccount): Record<string, unknown> {
    const token = randomBytes(16).toString('hex');
    const second = randomBytes(8).toString('hex');
    const material = sessionMaterial(platform, token, second);
    this.#sessions.set(materialKey(platform, material), { account, payments: new Map() });
    return material;
  }

  /** Ends a session: the platform answers 401 to it from now on. */
  expireSession(platform: string, material: Record<string, unknown>): void {
    this.#sessions.delete(materialKey(platform, material));
  }

  /** The account a session belongs to and what it has recorded, or undefined where no session has this material. */
  sessionOf(platform: string, material: Record<string, unknown>): { account: SimAccount; payments: SimPayment[] } | undefined {
    const session = this.#sessions.get(materialKey(platform, material));
    return session && { account: session.account, payments: [...session.payments.values()] };
  }

  recordPayment(platform: string, material: Record<string, unknown>, payment: SimPayment): void {
    const session = this.#sessions.get(materialKey(platform, material));
    if (!session) throw new Error(`no open ${platform} session for this material`);
    session.payments.set(payment.paymentId, payment);
    if (payment.public) {
      if (!this.#public.has(platform)) this.#public.set(platform, new Map());
      this.#public.get(platform)!.set(payment.paymentId, { record: payment, account: session.account });
    }
  }

  /** Every request to `platform` answers `status` until cleared with null. */
  setOutage(platform: string, status: number | null): void {
    if (status === null) this.#outages.delete(platform);
    else this.#outages.set(platform, status);
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #route(ctx: Context): SimSession | undefined {
    const platform = ctx.path.split('/')[1]!;
    this.requests.set(platform, (this.requests.get(platform) ?? 0) + 1);
    const outage = this.#outages.get(platform);
    if (outage !== undefined) {
      ctx.status = outage;
      ctx.body = { error: 'unavailable' };
      return undefined;
    }
    const headers = (CREDENTIAL_HEADERS[platform] ?? []).map((name) => ctx.get(name));
    const session = headers.every(Boolean) ? this.#sessions.get(sessionKey(platform, headers)) : undefined;
    if (!session) {
      ctx.status = 401;
      ctx.body = { error: 'unauthorized' };
      return undefined;
    }
    return session;
  }
}

type Resolve = (ctx: Context) => SimSession | undefined;
type Owns = (ctx: Context, account: SimAccount) => boolean;

function routes(resolve: Resolve, publicPayments: (platform: string) => Map<string, { record: SimPayment; account: SimAccount }>): Router {
  const router = new Router();
  const forbidden = (ctx: Context) => {
    ctx.status = 403;
    ctx.body = { error: 'forbidden' };
  };
  /** `owns`: whether the path's account is the session's, where the path names one. */
  const payment = (platform: string, paymentId: (ctx: Context) => string | undefined, owns?: Owns) => (ctx: Context) => {
    const found = resolve(ctx);
    if (!found) return;
    if (owns && !owns(ctx, found.account)) return forbidden(ctx);
    const id = paymentId(ctx) ?? '';
    const own = found.payments.get(id);
    // A public story is shown to anyone signed in, as it was recorded by its sender.
    const shown = own ? { record: own, account: found.account } : publicPayments(platform).get(id);
    if (!shown) {
      ctx.status = 404;
      ctx.body = { error: 'not found' };
      return;
    }
    ctx.body = renderPayment(platform, shown.record, shown.account);
  };
  const identity = (platform: string, owns?: Owns) => (ctx: Context) => {
    const found = resolve(ctx);
    if (!found) return;
    if (owns && !owns(ctx, found.account)) return forbidden(ctx);
    ctx.body = renderIdentity(platform, found.account);
  };
  const lastSegment = (ctx: Context) => ctx.params.id;

  router.get('/venmo/api/stories/target-or-actor/:id', identity('venmo'));
  router.get('/venmo/api/v5/account', (ctx) => {
    const found = resolve(ctx);
    if (found) ctx.body = { data: { user: { id: found.account.id, username: found.account.username } } };
  });
  router.get('/venmo/api/stories/:id', payment('venmo', lastSegment));
  router.post('/cashapp/cash-app/activity/v1.0/page', (ctx) => {
    const found = resolve(ctx);
    if (!found) return;
    if (!cashAppActivityRequest.safeParse(ctx.request.body).success) {
      ctx.status = 400;
      ctx.body = { error: 'bad request' };
      return;
    }
    const { account, payments } = found;
    ctx.body = {
      customer: { customer_token: `C_${account.id}`, cashtag: account.handle ?? `$${account.username}` },
      activity_rows: [...payments.values()].map((p) => renderPayment('cashapp', p, account)),
    };
  });
  router.get('/monzo/transactions/:id', payment('monzo', lastSegment));
  router.get(
    '/wise/gateway/v3/profiles/:profile/transfers/:id',
    payment('wise', lastSegment, (ctx, account) => account.id === ctx.params.profile),
  );
  router.get('/wise/gateway/v2/profiles', (ctx) => {
    const found = resolve(ctx);
    if (found) ctx.body = [{ id: Number(found.account.id), type: 'PERSONAL' }];
  });
  router.get(
    '/wise/gateway/v1/profiles/:id',
    identity('wise', (ctx, account) => account.id === ctx.params.id),
  );
  router.get('/revolut/api/retail/transaction/:id', payment('revolut', lastSegment));
  router.get('/chime/api/v1/transactions/:id', payment('chime', lastSegment));
  router.post(
    '/zelle-chase/svc/rr/payments/v1/quickpay/payment/activity/detail/list',
    payment('zelle-chase', (ctx) => (ctx.request.body as Record<string, string> | undefined)?.paymentId),
  );
  router.get('/zelle-bofa/ogateway/zelle/v1/activity/:id', payment('zelle-bofa', lastSegment));
  router.get('/zelle-citi/gcgapi/prod/public/v1/p2ppayments/pastActivityTransactions/:id', payment('zelle-citi', lastSegment));
  router.get('/paypal/myaccount/activities/details/inline/:id', payment('paypal', lastSegment));
  router.get('/paypal/myaccount/profile/api/user', identity('paypal'));
  router.get(
    '/paypal-business/v1/reporting/transactions',
    payment('paypal-business', (ctx) => String(ctx.query.transaction_id ?? '')),
  );
  router.get('/alipay/alipay/user/profile.json', identity('alipay'));
  return router;
}

function sessionMaterial(platform: string, token: string, second: string): Record<string, unknown> {
  switch (platform) {
    case 'venmo':
      return { Cookie: `api_access_token=${token}` };
    case 'cashapp':
      return { sessionCookie: `cash_web_session=${token}`, requestPayload: JSON.stringify({ activity_scope: 'MY_ACTIVITY_WEB_V2', page_size: 50 }) };
    case 'monzo':
    case 'paypal-business':
      return { Authorization: `Bearer ${token}` };
    case 'wise':
      return { Cookie: `appToken=${token}`, 'X-Access-Token': second };
    case 'revolut':
      return { Cookie: `credentials=${token}`, 'x-device-id': second };
    default:
      return { Cookie: `session=${token}` };
  }
}

/** The value a header carries for this material, as the enclave sends it. */
function headerOf(platform: string, material: Record<string, unknown>, header: string): string {
  if (platform === 'cashapp' && header === 'cookie') return String(material.sessionCookie);
  const key = Object.keys(material).find((name) => name.toLowerCase() === header);
  return key ? String(material[key]) : '';
}

/** The session key of the material, from the headers the enclave will send it as. */
function materialKey(platform: string, material: Record<string, unknown>): string {
  return sessionKey(
    platform,
    (CREDENTIAL_HEADERS[platform] ?? []).map((name) => headerOf(platform, material, name)),
  );
}

function sessionKey(platform: string, headers: string[]): string {
  return JSON.stringify([platform, ...headers]);
}
