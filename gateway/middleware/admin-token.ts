/**
 * Guards the admin API (/internal) with the bearer token of PEER_ADMIN_TOKEN. Without
 * a token the admin API is not mounted at all (app.ts), so its paths answer exactly as
 * unknown ones do. Both sides are SHA-256 digests before timingSafeEqual: equal
 * lengths always, so neither the comparison's time nor a length check can leak the
 * token's length.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { ApiError } from '../envelope.js';
import type { RequestState } from './request-context.js';

const BEARER = /^Bearer +(\S+) *$/i;

export function adminAuth(token: string): Middleware<RequestState> {
  const expected = digest(token);
  return async (ctx, next) => {
    const presented = BEARER.exec(ctx.get('authorization'))?.[1];
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      ctx.set('www-authenticate', 'Bearer');
      throw new ApiError(401, presented === undefined ? 'Missing admin token' : 'Invalid admin token');
    }
    await next();
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
