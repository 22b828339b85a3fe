/**
 * The five identity registrations of document 3: each reads the buyer's or maker's own
 * account from its platform with their session material and names the payee id that
 * payments to them will carry (so a maker's payee hash can be proven theirs).
 */
import { z } from 'zod';
import { ALIPAY, CASHAPP, PAYPAL, VENMO, WISE, type ActionDefinition, type PlatformDefinition } from '../../machines/platforms/index.js';
import { actionParts, type SessionOf } from '../platforms/adapter-parts.js';
import { readCashAppActivity } from '../platforms/cashapp.js';
import { normalizeEmail, normalizeTag } from '../platforms/params.js';
import { parsePlatformResponse, type PlatformRequest } from '../platforms/platform.js';

/** The platform answered well, for another account than the params name. */
export class IdentityMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdentityMismatchError';
  }
}

export interface VerifiedIdentity {
  payeeId: string;
  username: string;
  metadata: Record<string, string>;
}

export interface IdentityAction<S = unknown> {
  platform: string;
  actionType: string;
  session: z.ZodType<S>;
  params: z.ZodType<Record<string, string>>;
  request(session: S, params: Record<string, string>): PlatformRequest;
  read(response: unknown, params: Record<string, string>): VerifiedIdentity;
}

/** An action's platform, type, schemas and request, from its platform's identity action. */
function identityParts<const P extends PlatformDefinition & { identity: ActionDefinition }>(platform: P) {
  return { platform: platform.id, actionType: platform.identity.type, ...actionParts<P['identity']>(platform.identity) };
}

const venmoRegistration: IdentityAction<SessionOf<typeof VENMO.identity>> = {
  ...identityParts(VENMO),
  read(response, params) {
    const { data } = parsePlatformResponse(
      'venmo',
      z.object({ data: z.object({ account: z.object({ id: z.string(), username: z.string() }), stories: z.array(z.unknown()) }) }),
      response,
    );
    if (data.account.id !== params.SENDER_ID) {
      throw new IdentityMismatchError('the session belongs to another Venmo account than SENDER_ID');
    }
    return { payeeId: data.account.id, username: data.account.username, metadata: { stories: String(data.stories.length) } };
  },
};

const paypalRegistration: IdentityAction<SessionOf<typeof PAYPAL.identity>> = {
  ...identityParts(PAYPAL),
  read(response) {
    const { data } = parsePlatformResponse(
      'paypal',
      z.object({ data: z.object({ userId: z.string(), email: z.string(), displayName: z.string() }) }),
      response,
    );
    return { payeeId: normalizeEmail(data.email), username: data.displayName, metadata: { userId: data.userId } };
  },
};

const wiseRegistration: IdentityAction<SessionOf<typeof WISE.identity>> = {
  ...identityParts(WISE),
  read(response, params) {
    const profile = parsePlatformResponse(
      'wise',
      z.object({ id: z.number(), type: z.string(), wisetag: z.string().optional(), details: z.object({ firstName: z.string(), lastName: z.string() }) }),
      response,
    );
    if (String(profile.id) !== params.PROFILE_ID) throw new IdentityMismatchError('the session belongs to another Wise profile than PROFILE_ID');
    return {
      payeeId: String(profile.id),
      username: profile.wisetag ?? `${profile.details.firstName} ${profile.details.lastName}`,
      metadata: { profileType: profile.type },
    };
  },
};

const cashAppRegistration: IdentityAction<SessionOf<typeof CASHAPP.identity>> = {
  ...identityParts(CASHAPP),
  read(response) {
    const { customer } = readCashAppActivity(response);
    return { payeeId: normalizeTag(customer.cashtag), username: customer.cashtag, metadata: { customerToken: customer.customer_token } };
  },
};

const alipayRegistration: IdentityAction<SessionOf<typeof ALIPAY.identity>> = {
  ...identityParts(ALIPAY),
  read(response) {
    const { result } = parsePlatformResponse(
      'alipay',
      z.object({ stat: z.literal('ok'), result: z.object({ userId: z.string(), logonId: z.string(), nickName: z.string() }) }),
      response,
    );
    return { payeeId: result.userId, username: result.nickName, metadata: { logonId: result.logonId } };
  },
};

/** Every identity registration the service makes. */
// biome-ignore lint/suspicious/noExplicitAny: each action has its own parameter type; the list holds them all
export const IDENTITY_ACTIONS: readonly IdentityAction<any>[] = [
  venmoRegistration,
  paypalRegistration,
  wiseRegistration,
  cashAppRegistration,
  alipayRegistration,
];

export function identityAction(platform: string, actionType: string): IdentityAction<unknown> | undefined {
  return IDENTITY_ACTIONS.find((action) => action.platform === platform && action.actionType === actionType);
}
