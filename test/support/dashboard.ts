/**
 * The merchant dashboard in tests (docs/dashboard-auth.md): a gateway whose dashboard mail is
 * caught, a business with an Owner added through the admin API, and sign-in the way a browser
 * does it, reading the code from the caught mail and keeping the cookie and CSRF token.
 */
import type { DashboardCodeMessage, DashboardInvitationMessage, DashboardMail } from '../../gateway/dashboard/dashboard-mail.js';
import { CSRF_HEADER, SESSION_COOKIE } from '../../gateway/dashboard/session-tokens.js';
import { type ApiResponse, startTestGateway, type TestGateway } from './gateway.js';

export class CaughtDashboardMail implements DashboardMail {
  readonly codes: DashboardCodeMessage[] = [];
  readonly invitations: DashboardInvitationMessage[] = [];

  async sendCode(message: DashboardCodeMessage): Promise<void> {
    this.codes.push(message);
  }

  async sendInvitation(message: DashboardInvitationMessage): Promise<void> {
    this.invitations.push(message);
  }

  /** The latest code mailed to `to`. */
  codeFor(to: string): string {
    const found = this.codes.filter((message) => message.to === to).at(-1);
    if (!found) throw new Error(`no code was mailed to ${to}`);
    return found.code;
  }
}

export interface DashboardSession {
  /** The `Cookie` header value a browser would send. */
  cookie: string;
  csrfToken: string;
  sessionId: string;
  /** The sign-in's answer. */
  signedIn: ApiResponse;
}

export interface Business {
  liveId: string;
  sandboxId: string;
  liveKey: string;
  sandboxKey: string;
  ownerEmail: string;
  ownerId: string;
}

export interface DashboardWorld {
  gateway: TestGateway;
  mail: CaughtDashboardMail;
  /** A merchant (admin API) with `ownerEmail` added as its Owner. */
  business(ownerEmail?: string, name?: string): Promise<Business>;
  /** Asks for a code, reads it from the mail and signs in with it. */
  signIn(email: string, body?: Record<string, unknown>): Promise<DashboardSession>;
  /** A call with the session's cookie and, unless `csrf` is null or another value, its CSRF token. */
  call(
    session: DashboardSession,
    method: string,
    path: string,
    options?: { body?: unknown; csrf?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
  /** An Owner invites `email` with `role`, and the new member signs in. */
  member(owner: DashboardSession, email: string, role: 'OWNER' | 'MANAGER' | 'CASHIER'): Promise<DashboardSession & { userId: string }>;
}

export function cookieOf(response: ApiResponse): string {
  const set = response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));
  if (!set) throw new Error(`no session cookie was set: ${JSON.stringify(response.body)}`);
  return set.split(';')[0]!;
}

export async function dashboardWorld(
  t: { teardown(fn: () => Promise<void>): void },
  overrides: Parameters<typeof startTestGateway>[0] = {},
): Promise<DashboardWorld> {
  const mail = new CaughtDashboardMail();
  const gateway = await startTestGateway(overrides, { dashboardMail: mail });
  t.teardown(() => gateway.stop());
  const call: DashboardWorld['call'] = (session, method, path, options = {}) => {
    const headers: Record<string, string> = { cookie: session.cookie, ...options.headers };
    if (options.csrf !== null) headers[CSRF_HEADER] = options.csrf ?? session.csrfToken;
    return gateway.request(method, path, { headers, ...(options.body === undefined ? {} : { body: options.body }) });
  };
  const signIn: DashboardWorld['signIn'] = async (email, body = {}) => {
    const asked = await gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email } });
    if (asked.status !== 202) throw new Error(`code request: ${JSON.stringify(asked.body)}`);
    const signedIn = await gateway.request('POST', '/api/v1/dashboard/sign-in', { body: { email, code: mail.codeFor(email), ...body } });
    if (signedIn.status !== 200) throw new Error(`sign-in: ${JSON.stringify(signedIn.body)}`);
    return { cookie: cookieOf(signedIn), csrfToken: signedIn.body.responseObject.csrfToken, sessionId: signedIn.body.responseObject.sessionId, signedIn };
  };
  return {
    gateway,
    mail,
    call,
    signIn,
    async business(ownerEmail = 'owner@acme.example', name = 'Acme') {
      const merchant = await gateway.createMerchant({ name, tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
      const added = await gateway.admin('POST', `/internal/v1/merchants/${merchant.liveId}/owners`, { email: ownerEmail });
      if (added.status !== 201) throw new Error(`add owner: ${JSON.stringify(added.body)}`);
      return { ...merchant, ownerEmail, ownerId: added.body.responseObject.userId };
    },
    async member(owner, email, role) {
      const invited = await call(owner, 'POST', '/api/v1/merchants/me/users', { body: { email, role } });
      if (invited.status !== 201) throw new Error(`invite: ${JSON.stringify(invited.body)}`);
      return { ...(await signIn(email)), userId: invited.body.responseObject.userId };
    },
  };
}

/**
 * Signs `email` in on a node that mails for real (its local mail catcher, as on `npm start`),
 * reading the code from the catcher's inbox; for tests that start their gateway without a caught mailer.
 */
export async function signInThroughInbox(gateway: TestGateway, email: string): Promise<DashboardSession> {
  const inbox = gateway.node.mail.inbox;
  if (!inbox) throw new Error('this node sends mail through SMTP_URL: it has no inbox to read the code from');
  const before = new Set(inbox.messages().map((message) => message.id));
  const asked = await gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email } });
  if (asked.status !== 202) throw new Error(`code request: ${JSON.stringify(asked.body)}`);
  const deadline = Date.now() + 10_000;
  let code: string | undefined;
  while (!code) {
    const mailed = inbox.messages().find((message) => !before.has(message.id) && message.to.includes(email));
    code = /^(\d{6}) is your merchant dashboard sign-in code/.exec(mailed?.subject ?? '')?.[1];
    if (code) break;
    if (Date.now() > deadline) throw new Error(`no code reached the inbox for ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const signedIn = await gateway.request('POST', '/api/v1/dashboard/sign-in', { body: { email, code } });
  if (signedIn.status !== 200) throw new Error(`sign-in: ${JSON.stringify(signedIn.body)}`);
  return { cookie: cookieOf(signedIn), csrfToken: signedIn.body.responseObject.csrfToken, sessionId: signedIn.body.responseObject.sessionId, signedIn };
}
