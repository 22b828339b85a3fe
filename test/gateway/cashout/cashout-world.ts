/**
 * A payout world (../payouts/payout-world.ts) with the customer's side: sign-in codes caught
 * as the mailer would send them, a payout funded in full through the fake provider, and the
 * checkout's routes with the link's token and a login token.
 */
import type { ExecutionContext } from 'ava';
import type { SignInCodeMessage, SignInMail } from '../../../gateway/cashout/sign-in-mail.js';
import type { ApiResponse } from '../../support/gateway.js';
import { answerOf } from '../../support/checkout.js';
import { payoutWorld, USDC, type PayoutWorld } from '../payouts/payout-world.js';

export class CaughtMail implements SignInMail {
  readonly sent: SignInCodeMessage[] = [];
  failing = false;

  async sendCode(message: SignInCodeMessage): Promise<void> {
    if (this.failing) throw new Error('the mail server refused the message');
    this.sent.push(message);
  }

  /** The latest code mailed to `to`. */
  codeFor(to: string): string {
    const found = this.sent.filter((message) => message.to === to).at(-1);
    if (!found) throw new Error(`no code was mailed to ${to}`);
    return found.code;
  }
}

export interface CheckoutLink {
  payoutId: string;
  token: string;
}

export interface CashoutWorld extends PayoutWorld {
  mail: CaughtMail;
  /** A payout of `body` (document 2's worked numbers by default), funded in full and FUNDED: its link. */
  fundedPayout(body?: unknown): Promise<CheckoutLink & { created: any }>;
  /** A call on the payout's checkout with its link token and, when given, a login token. */
  checkout(link: CheckoutLink, method: string, path?: string, options?: { body?: unknown; login?: string; token?: string | null }): Promise<ApiResponse>;
  /** Asks for a code and signs in with it: the login token. */
  signIn(link: CheckoutLink, email?: string): Promise<string>;
}

export function linkOf(checkoutUrl: string): CheckoutLink {
  const url = new URL(checkoutUrl);
  return { payoutId: decodeURIComponent(url.pathname.split('/').at(-1)!), token: url.searchParams.get('token')! };
}

export async function cashoutWorld(t: ExecutionContext, options: Parameters<typeof payoutWorld>[1] = {}): Promise<CashoutWorld> {
  const mail = new CaughtMail();
  const world = await payoutWorld(t, { ...options, cashoutMail: mail });
  const checkout: CashoutWorld['checkout'] = (link, method, path = '', options = {}) => {
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? link.token : options.token;
    if (token !== null) headers['x-cashout-token'] = token;
    if (options.login) headers.authorization = `Bearer ${options.login}`;
    return world.gateway.request(method, `/api/v1/cashout-checkout/${link.payoutId}${path}`, {
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
    });
  };
  return {
    ...world,
    mail,
    checkout,
    async fundedPayout(body) {
      const created = await world.created(body);
      const transfer = world.funding.send(104_123_712n, world.iso());
      world.funding.deliver(transfer, 101n * USDC);
      await world.activity(created.payoutId);
      const view = await world.view(created.payoutId);
      if (view.status !== 'FUNDED') throw new Error(`the payout is ${view.status}, not FUNDED`);
      return { ...linkOf(created.checkoutUrl), created };
    },
    async signIn(link, email = 'ana@example.com') {
      answerOf(await checkout(link, 'POST', '/sign-in/code'), 202, 'the code');
      return answerOf(await checkout(link, 'POST', '/sign-in', { body: { code: mail.codeFor(email) } }), 200, 'the sign-in').loginToken;
    },
  };
}
