/** How operations authenticate, as the document declares it, and the refusals each way answers. */
import { failure, type Answers, type Outcome } from './answers.js';

export const API_KEY = [{ apiKey: [] }];
/** A merchant dashboard session (its cookie; docs/dashboard-auth.md). */
export const DASHBOARD_SESSION = [{ dashboardSession: [] }];
/** Either: the API key, or a dashboard session. */
export const API_KEY_OR_SESSION: Array<Record<string, string[]>> = [{ apiKey: [] }, { dashboardSession: [] }];
export const ADMIN_TOKEN = [{ adminToken: [] }];
export const ORDER_TOKEN = [{ orderToken: [] }];
export const MAKER_TOKEN = [{ makerToken: [] }];
export const CASHOUT_LINK = [{ cashoutLink: [] }];
/** Both at once: the link names the payout, the login token the customer. */
export const CASHOUT_SIGNED_IN = [{ cashoutLink: [], cashoutLogin: [] }];
/** Declared outright, so that a public operation is never mistaken for one that forgot its security. */
export const NO_AUTH: Array<Record<string, string[]>> = [];

const apiKey = {
  type: 'apiKey',
  in: 'header',
  name: 'X-API-Key',
  description: 'The merchant environment’s API key; never sent from a browser or mobile app',
} as const;
const dashboardSession = {
  type: 'apiKey',
  in: 'cookie',
  name: 'peer_dashboard_session',
  description:
    'A team member’s merchant dashboard session, set by POST /api/v1/dashboard/sign-in (HttpOnly, SameSite=Strict); a call that changes something also sends the session’s csrfToken in x-csrf-token (docs/dashboard-auth.md)',
} as const;
const adminToken = { type: 'http', scheme: 'bearer', description: 'PEER_ADMIN_TOKEN: the admin API and metrics' } as const;
const orderToken = {
  type: 'http',
  scheme: 'bearer',
  description: 'The orderToken create-order answered, which the checkout link carries: the customer’s credential for one order',
} as const;
const makerToken = {
  type: 'http',
  scheme: 'bearer',
  description: 'A maker’s token, answered by signing in with a wallet (POST /v2/auth/verify; docs/maker-auth.md)',
} as const;

const cashoutLink = {
  type: 'apiKey',
  in: 'header',
  name: 'X-Cashout-Token',
  description: 'The `token` of a payout’s checkoutUrl: the customer’s link to one payout (docs/payout-checkout.md)',
} as const;
const cashoutLogin = {
  type: 'http',
  scheme: 'bearer',
  description: 'The loginToken a payout customer’s sign-in answered (POST /api/v1/cashout-checkout/{payoutId}/sign-in)',
} as const;

type Scheme = typeof apiKey | typeof dashboardSession | typeof adminToken | typeof orderToken | typeof makerToken | typeof cashoutLink | typeof cashoutLogin;

/** The admin token is a scheme only where the admin API is served. */
export function securitySchemes(admin: boolean): Record<string, Scheme> {
  const open = { apiKey, dashboardSession, orderToken, makerToken, cashoutLink, cashoutLogin };
  return admin ? { ...open, adminToken } : open;
}

/** The bearer guard's refusals (middleware/bearer-auth.ts): what to do next is in the code. */
export const makerTokenRefusals: Answers = {
  '401': failure(401, [
    { code: 'TOKEN_MISSING', when: 'no `Authorization: Bearer` header: sign in (POST /v2/auth/verify)' },
    { code: 'TOKEN_INVALID', when: 'not a token this service issued, or its session signed out: sign in again' },
    { code: 'TOKEN_EXPIRED', when: 'the token’s expiresAt has passed: sign in again' },
  ]),
};

/** 401 without a token; a wrong token and an unknown order are one 404, so nobody learns which orders exist. */
export const orderTokenRefusals: Answers = {
  '401': failure(401, [{ when: 'Missing order token' }]),
  '404': failure(404, [{ code: 'NOT_FOUND', when: 'No order with that id, or the token is not its token (the two are not told apart)' }]),
};

/** 401 for a missing or unknown key, 403 for a client address the key’s allowlist refuses, plus the operation’s own 403s. */
export function apiKeyRefusals(forbidden: Outcome[] = []): Answers {
  return {
    '401': failure(401, [{ when: 'Missing API key, or Invalid API key' }]),
    '403': failure(403, [{ code: 'IP_NOT_ALLOWED', when: 'the client address is outside the key’s apiKeyIpAllowlist' }, ...forbidden]),
  };
}

const SESSION_401: Outcome[] = [
  { code: 'SESSION_REQUIRED', when: 'no session cookie: sign in (POST /api/v1/dashboard/sign-in)' },
  { code: 'SESSION_INVALID', when: 'the cookie names no open session (unknown, signed out, revoked, or its member removed): sign in again' },
  { code: 'SESSION_EXPIRED', when: 'the session was idle 30 minutes, or is 12 hours old: sign in again' },
];
export const CSRF_403: Outcome[] = [{ code: 'CSRF_TOKEN_MISSING' }, { code: 'CSRF_TOKEN_INVALID' }];

/**
 * The session guard's refusals (gateway/dashboard/session-guard.ts): no or a dead session, an
 * API key sent, and for a call that changes something (`changes`) a missing or wrong CSRF
 * token, plus the operation's own 403s (ROLE_NOT_ALLOWED).
 */
export function sessionRefusals(changes: boolean, forbidden: Outcome[] = []): Answers {
  return {
    '401': failure(401, SESSION_401),
    '403': failure(403, [
      { code: 'API_KEY_NOT_ALLOWED', when: 'an X-API-Key was sent: this operation is for the dashboard’s session only' },
      ...(changes ? CSRF_403 : []),
      ...forbidden,
    ]),
  };
}

/** The merchant guard's refusals: the API key's when X-API-Key is sent (or neither credential is), the session's otherwise. */
export function merchantRefusals(changes: boolean, forbidden: Outcome[] = []): Answers {
  return {
    '401': failure(401, [{ when: 'Missing API key (and no session cookie), or Invalid API key' }, ...SESSION_401.slice(1)]),
    '403': failure(403, [
      { code: 'IP_NOT_ALLOWED', when: 'the client address is outside the key’s apiKeyIpAllowlist' },
      ...(changes ? CSRF_403 : []),
      ...forbidden,
    ]),
  };
}

/** The admin guard’s one refusal, the same for every admin path. */
export const adminRefusal: Answers = { '401': failure(401, [{ when: 'Missing admin token, or Invalid admin token' }]) };

/** A payout's checkout link, checked before anything else the request says (document 2, Authentication 4). */
export const cashoutLinkRefusals: Answers = {
  '401': failure(401, [{ code: 'CASHOUT_TOKEN_INVALID', when: 'the link token is missing or wrong, or no payout has that id' }]),
};

/** The link, then the customer's login token, then whether that customer is the payout's. */
export const cashoutSignedInRefusals: Answers = {
  '401': failure(401, [
    { code: 'CASHOUT_TOKEN_INVALID', when: 'the link token is missing or wrong, or no payout has that id' },
    { code: 'CASHOUT_LOGIN_REQUIRED', when: 'no `Authorization: Bearer` login token' },
    { code: 'CASHOUT_LOGIN_INVALID', when: 'the login token cannot be verified (expired, or signed under a rotated key)' },
  ]),
  '403': failure(403, [{ code: 'CASHOUT_PLAYER_MISMATCH', when: 'the signed-in customer is not the payout’s' }]),
};
