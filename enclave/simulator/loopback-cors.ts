/**
 * CORS for the simulator's buyer API. A checkout page served on another loopback port is
 * another origin, so the browser lets it call the simulator only when told it may. Only
 * loopback origins are told so: the simulator hands out platform-like sessions, and no
 * page from elsewhere has any business with them.
 */
import type { Middleware } from 'koa';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    // Comparing with the parsed origin refuses anything a browser would not send as an Origin, such as a path.
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname) && url.origin === origin;
  } catch {
    return false;
  }
}

/** Answers preflights itself; other requests go on with the origin allowed, or not. */
export function loopbackCors(): Middleware {
  return async (ctx, next) => {
    // The answer depends on Origin, so no cache may hand one origin's answer to another.
    ctx.vary('Origin');
    const origin = ctx.get('Origin');
    const allowed = isLoopbackOrigin(origin);
    if (allowed) ctx.set('Access-Control-Allow-Origin', origin);
    if (ctx.method !== 'OPTIONS') return next();
    if (allowed) {
      ctx.set('Access-Control-Allow-Methods', 'POST');
      // A JSON body is what makes the browser ask first.
      ctx.set('Access-Control-Allow-Headers', 'content-type');
      ctx.set('Access-Control-Max-Age', '600');
    }
    ctx.status = 204;
  };
}
