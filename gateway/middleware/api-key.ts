/**
 * Authenticates merchant requests by X-API-Key (document 1, Authentication). The
 * store holds only the key's hash, indexed, so the lookup is by hash. The stored hash
 * is still compared with the computed one in constant time: the lookup is then only
 * a finder, and a store that ever matched loosely (a collation, a prefix index)
 * could not let a near miss in.
 *
 * The key itself is never logged here; pino's redaction covers the header.
 */
import type { Middleware } from 'koa';
import { sameHash } from '../auth/secret-hash.js';
import { hashApiKey } from '../auth/api-keys.js';
import { ipAllowed } from '../auth/cidr.js';
import { ApiError } from '../envelope.js';
import type { ClientIpState } from './client-ip.js';

export interface ApiKeyAccount {
  merchantId: string;
  environment: 'LIVE' | 'SANDBOX';
  /** Canonical CIDRs (auth/cidr.ts); empty means any address. */
  apiKeyIpAllowlist: string[];
  /** SHA-256 hex of the key (auth/api-keys.ts). */
  apiKeyHash: string;
}

export interface AuthState<T extends ApiKeyAccount = ApiKeyAccount> extends ClientIpState {
  account: T;
}

/** Needs clientIp() upstream: the allowlist is checked against `ctx.state.clientIp`. */
export function apiKeyAuth<T extends ApiKeyAccount>(lookup: (keyHash: string) => Promise<T | null>): Middleware<AuthState<T>> {
  return async (ctx, next) => {
    const key = ctx.get('x-api-key');
    if (!key) throw new ApiError(401, 'Missing API key');
    const keyHash = hashApiKey(key);
    const account = await lookup(keyHash);
    if (!account || !sameHash(account.apiKeyHash, keyHash)) throw new ApiError(401, 'Invalid API key');
    if (!ipAllowed(ctx.state.clientIp, account.apiKeyIpAllowlist)) throw new ApiError(403, 'IP not allowed', 'IP_NOT_ALLOWED');
    ctx.state.account = account;
    ctx.state.addLogFields({ merchantId: account.merchantId });
    await next();
  };
}
