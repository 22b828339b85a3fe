/** How operations authenticate, as the document declares it, and the refusals each way answers. */
import { failure, type Answers, type Outcome } from './answers.js';

export const API_KEY = [{ apiKey: [] }];
export const ADMIN_TOKEN = [{ adminToken: [] }];
/** Declared outright, so that a public operation is never mistaken for one that forgot its security. */
export const NO_AUTH: Array<Record<string, string[]>> = [];

const apiKey = { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The merchant environment’s API key; never sent from a browser or mobile app' } as const;
const adminToken = { type: 'http', scheme: 'bearer', description: 'PEER_ADMIN_TOKEN: the admin API and metrics' } as const;

/** The admin token is a scheme only where the admin API is served. */
export function securitySchemes(admin: boolean): Record<string, typeof apiKey | typeof adminToken> {
  return admin ? { apiKey, adminToken } : { apiKey };
}

/** 401 for a missing or unknown key, 403 for a client address the key’s allowlist refuses, plus the operation’s own 403s. */
export function apiKeyRefusals(forbidden: Outcome[] = []): Answers {
  return {
    '401': failure(401, [{ when: 'Missing API key, or Invalid API key' }]),
    '403': failure(403, [{ code: 'IP_NOT_ALLOWED', when: 'the client address is outside the key’s apiKeyIpAllowlist' }, ...forbidden]),
  };
}

/** The admin guard’s one refusal, the same for every admin path. */
export const adminRefusal: Answers = { '401': failure(401, [{ when: 'Missing admin token, or Invalid admin token' }]) };
