/**
 * Team members sign in to the merchant dashboard with a one-time code e-mailed to them
 * (docs/dashboard-auth.md). Asking for a code answers alike for any address, so the answer
 * says nothing of who is on a team; only a team's address is sent a code. The code is drawn
 * here and mailed; the `dashboard-login` actor of the address keeps its HMAC and decides each
 * try (expiry, single use, tries per code, codes per window) across nodes. A code that signs
 * in opens a `dashboard-session` actor whose id is derived from the cookie answered.
 *
 * Both steps count against two budgets, the address's and the client address's, refused
 * with the global limit's 429 (headers and all): the address's is the login actor's ration
 * (5 codes in 15 minutes) kept for every address, so that a team's address and anyone
 * else's are refused at the same request. Both are counted where the node counts its rate
 * limits (gateway/limits/): for the whole cluster in a cluster.
 */
import { createHmac, randomInt, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { CommandRejectedError, UnknownActorError } from '../../actors/errors.js';
import { dashboardLoginKind } from '../../actors/kinds/dashboard-login-kind.js';
import { dashboardSessionKind } from '../../actors/kinds/dashboard-session-kind.js';
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { CODE_TTL_MS, CODE_WINDOW_MS, MAX_CODES_PER_WINDOW, type VerificationOutcome } from '../../machines/cashout-login/index.js';
import type { SessionEndReason, SessionEnvironment } from '../../machines/dashboard-session/index.js';
import { normalEmail } from '../../machines/merchant/index.js';
import type { KeptKeys } from '../cashout/kept-keys.js';
import type { Budget, Budgets } from '../limits/index.js';
import { ApiError } from '../envelope.js';
import { derivedId } from '../ids.js';
import type { MerchantAccount, MerchantAccounts } from '../merchants/merchant-accounts.js';
import type { AuditLog } from './audit-log.js';
import type { DashboardMail } from './dashboard-mail.js';
import { generateSessionToken, hashSessionToken, sessionIdOf } from './session-tokens.js';

const CODE_PURPOSE = 'dashboard-code';
/** Code requests and sign-ins together, per client address per window: room for a shared office, none for a sweep. */
export const SIGN_IN_PER_CLIENT = 30;
const CLIENT_WINDOW_SECONDS = 15 * 60;

export interface DashboardAuthDependencies {
  system: ActorSystem;
  accounts: MerchantAccounts;
  keys: KeptKeys;
  mail: DashboardMail;
  audit: AuditLog;
  now(): string;
  logger: Logger;
  budgets: Budgets;
}

export interface SignInRequest {
  email: string;
  code: string;
  merchantId?: string | undefined;
  environment?: SessionEnvironment | undefined;
  clientIp: string;
}

export interface SignedIn {
  token: string;
  sessionId: string;
  expiresAt: string;
}

export class DashboardAuth {
  readonly #perAddress: Budget;
  readonly #perClient: Budget;

  constructor(private readonly deps: DashboardAuthDependencies) {
    this.#perAddress = deps.budgets.budget('dashboard-codes', MAX_CODES_PER_WINDOW, CODE_WINDOW_MS / 1000);
    this.#perClient = deps.budgets.budget('dashboard-sign-in', SIGN_IN_PER_CLIENT, CLIENT_WINDOW_SECONDS);
  }

  /** Sends a code when `email` is on a team; answers the same either way. */
  async requestCode(rawEmail: string, clientIp: string): Promise<{ codeExpiresInSeconds: number }> {
    const email = normalEmail(rawEmail);
    await spend(this.#perClient, clientIp);
    // Counted under the login actor's derived id: in a cluster the key is stored, and an address is no key to store.
    await spend(this.#perAddress, loginIdOf(email));
    if ((await this.businessesOf(email)).length > 0) await this.#sendCode(email);
    return { codeExpiresInSeconds: CODE_TTL_MS / 1000 };
  }

  /** Checks the code and opens a session on the member's business; refusals are recorded in each business the address is on. */
  async signIn(request: SignInRequest): Promise<SignedIn> {
    const email = normalEmail(request.email);
    await spend(this.#perClient, request.clientIp);
    const at = this.deps.now();
    const outcome = await this.#verify(email, request.code, at);
    const businesses = (await this.businessesOf(email)).filter((business) => !request.merchantId || business.merchantId === request.merchantId);
    // A right code for an address no longer on the team (or not on the team named) signs in nowhere: as if none was sent.
    if (outcome !== 'SIGNED_IN' || businesses.length === 0) {
      for (const business of businesses) await this.#recordSignIn(business, email, null, request.clientIp, 401);
      throw new ApiError(401, WHY[outcome === 'SIGNED_IN' ? 'NO_CODE' : outcome], 'SIGN_IN_CODE_INVALID', {
        reason: outcome === 'SIGNED_IN' ? 'NO_CODE' : outcome,
      });
    }
    if (businesses.length > 1) {
      throw new ApiError(409, 'This address is on several teams: sign in again naming one merchantId', 'MERCHANT_REQUIRED', {
        merchants: businesses.map((business) => ({ merchantId: business.merchantId, name: business.profile.name })),
      });
    }
    return this.#open(businesses[0]!, email, request.environment ?? 'LIVE', request.clientIp, 'signInDashboard');
  }

  /** Counts a sign-in try of `clientIp` against its budget (the passkey's as the code's); past it, 429. */
  async spendSignIn(clientIp: string): Promise<void> {
    await spend(this.#perClient, clientIp);
  }

  /** Opens a session for a member a passkey signed in, exactly as a code would (cookie, expiry, audit entry). */
  async signInMember(businessId: string, userId: string, environment: SessionEnvironment, clientIp: string): Promise<SignedIn> {
    const business = await this.deps.accounts.byId(businessId);
    const member = business?.profile.merchantUsers.find((user) => user.userId === userId);
    if (!business || !member)
      throw new ApiError(401, 'That passkey’s member is no longer on the team', 'PASSKEY_SIGN_IN_INVALID', { reason: 'UNKNOWN_CREDENTIAL' });
    return this.#open(business, member.email, environment, clientIp, 'signInDashboardWithPasskey');
  }

  async #open(business: MerchantAccount, email: string, environment: SessionEnvironment, clientIp: string, operationId: string): Promise<SignedIn> {
    const at = this.deps.now();
    const member = business.profile.merchantUsers.find((user) => user.email === email)!;
    if (member.status === 'INVITED') await this.deps.system.ask(merchantKind, business.merchantId, { type: 'MEMBER_SIGNED_IN', userId: member.userId, at });
    const token = generateSessionToken();
    const sessionId = sessionIdOf(token);
    const session = await this.deps.system.ask(dashboardSessionKind, sessionId, {
      type: 'SIGN_IN',
      tokenHash: hashSessionToken(token),
      merchantId: business.merchantId,
      userId: member.userId,
      email,
      environment,
      at,
    });
    await this.#recordSignIn(business, email, { userId: member.userId, sessionId }, clientIp, 200, environment, operationId);
    return { token, sessionId, expiresAt: session.expiresAt };
  }

  /** Ends one session, or every open session of a member; answers how many it ended. */
  async end(sessions: { sessionId: string } | { userId: string }, reason: SessionEndReason): Promise<number> {
    const at = this.deps.now();
    const ids =
      'sessionId' in sessions
        ? [sessions.sessionId]
        : (await this.deps.system.views(dashboardSessionKind).find({ 'view.userId': sessions.userId, 'view.open': true }, { projection: { _id: 1 } })).map(
            (doc) => doc._id,
          );
    for (const id of ids) await this.deps.system.ask(dashboardSessionKind, id, { type: 'END', reason, at });
    return ids.length;
  }

  /** The LIVE accounts whose team has `email`, oldest first. */
  async businessesOf(email: string): Promise<MerchantAccount[]> {
    const docs = await this.deps.system
      .views(merchantKind)
      .find({ 'view.memberEmails': email, 'view.environment': 'LIVE' }, { projection: { _id: 1 }, sort: { _id: 1 } });
    const accounts = await Promise.all(docs.map((doc) => this.deps.accounts.byId(doc._id)));
    return accounts.filter((account): account is MerchantAccount => account?.profile.merchantUsers.some((user) => user.email === email) ?? false);
  }

  async #sendCode(email: string): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const at = this.deps.now();
    const { codeExpiresAt } = await this.#issue(loginIdOf(email), await this.#codeHash(email, code), at);
    // Not awaited: how long the mail server takes would tell a team's address from anyone's. A failure is logged.
    this.deps.mail
      .sendCode({ to: email, code, expiresAt: codeExpiresAt! })
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'a dashboard sign-in code could not be mailed'));
  }

  async #issue(loginId: string, hash: string, at: string) {
    try {
      try {
        return await this.deps.system.ask(dashboardLoginKind, loginId, { type: 'ISSUE_CODE', hash, at });
      } catch (error) {
        if (!(error instanceof UnknownActorError)) throw error;
      }
      try {
        return await this.deps.system.ask(dashboardLoginKind, loginId, { type: 'FIRST_CODE', hash, at });
      } catch (error) {
        if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
        return await this.deps.system.ask(dashboardLoginKind, loginId, { type: 'ISSUE_CODE', hash, at });
      }
    } catch (error) {
      // Rationed on another node's count: the same 429 as this node's budget.
      if (error instanceof CommandRejectedError && error.code === 'SIGN_IN_CODES_RATIONED') {
        const { retryAfterSeconds } = error.details as { retryAfterSeconds: number };
        throw new ApiError(429, 'Too many requests', undefined, null, retryAfterSeconds, { cause: error });
      }
      throw error;
    }
  }

  async #verify(email: string, code: string, at: string): Promise<VerificationOutcome> {
    try {
      const { outcome } = await this.deps.system.ask(dashboardLoginKind, loginIdOf(email), {
        type: 'VERIFY_CODE',
        attemptId: randomUUID(),
        hash: await this.#codeHash(email, code),
        at,
      });
      return outcome ?? 'NO_CODE';
    } catch (error) {
      if (error instanceof UnknownActorError) return 'NO_CODE';
      throw error;
    }
  }

  /** Under the node's kept code key and bound to the address, so a code means nothing for another address. */
  async #codeHash(email: string, code: string): Promise<string> {
    const key = await this.deps.keys.current(CODE_PURPOSE);
    return createHmac('sha256', key.secret).update(`${email}:${code}`).digest('hex');
  }

  async #recordSignIn(
    business: MerchantAccount,
    email: string,
    session: { userId: string; sessionId: string } | null,
    clientIp: string,
    status: number,
    environment: SessionEnvironment | null = null,
    operationId = 'signInDashboard',
  ): Promise<void> {
    const member = business.profile.merchantUsers.find((user) => user.email === email);
    await this.deps.audit.record({
      merchantId: business.merchantId,
      environment,
      actor: { kind: 'session', userId: session?.userId ?? member?.userId ?? '', email, sessionId: session?.sessionId ?? '' },
      operationId,
      targets: member ? { userId: member.userId } : {},
      clientIp,
      status,
    });
  }
}

const WHY: Record<Exclude<VerificationOutcome, 'SIGNED_IN'>, string> = {
  WRONG_CODE: 'That code is not right: check the e-mail and try again',
  CODE_EXPIRED: 'That code has expired: ask for a new one',
  NO_CODE: 'No code was sent to this address: ask for one',
  CODE_USED: 'That code was used already: ask for a new one',
  TOO_MANY_TRIES: 'Too many wrong tries for that code: ask for a new one',
};

/** The login actor of an address: derived, so the address itself is no actor id (ids show in logs and the inspector). */
function loginIdOf(email: string): string {
  return derivedId('dlg', 'peer dashboard login v1', email);
}

async function spend(budget: Budget, key: string): Promise<void> {
  try {
    await budget.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    throw new ApiError(429, 'Too many requests', undefined, null, Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
  }
}
