/** How operations authenticate, as the document declares it, and the refusals each way answers. */
import { failure, type Answers, type Outcome } from './answers.js';

export const API_KEY = [{ apiKey: [] }];
export const ADMIN_TOKEN = [{ adminToken: [] }];
export const ORDER_TOKEN = [{ orderToken: [] }];
/** Declared outright, so that a public operation is never mistaken for one that forgot its security. */
export const NO_AUTH: Array<Record<string, string[]>> = [];

const apiKey = { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The merchant environment’s API key; never sent from a browser or mobile app' } as const;
const adminToken = { type: 'http', scheme: 'bearer', description: 'PEER_ADMIN_TOKEN: the admin API and metrics' } as const;
const orderToken = { type: 'http', scheme: 'bearer', description: 'The orderToken create-order answered, which the checkout link carries: the customer’s credential for one order' } as const;

/** The admin token is a scheme only where the admin API is served. */
export function securitySchemes(admin: boolean): Record<string, typeof apiKey | typeof adminToken | typeof orderToken> {
  return admin ? { apiKey, orderToken, adminToken } : { apiKey, orderToken };
}

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

/** The admin guard’s one refusal, the same for every admin path. */
export const adminRefusal: Answers = { '401': failure(401, [{ when: 'Missing admin token, or Invalid admin token' }]) };
