/**
 * The global limit of document 1: so many requests per minute per client address
 * (after client-ip.ts), in a fixed one-minute window that opens with the address's
 * first request. Every response says what is left and when the window resets, so a
 * well-behaved client can pace itself before it is refused. An IPv6 client is
 * counted by its /64: one subscriber is routinely given a whole /64, and counting
 * single addresses would let it rotate through 2^64 fresh budgets (and fill memory).
 *
 * The counters live in this process (RateLimiterMemory), so the limit is per node:
 * behind a balancer spreading a client over N nodes it gets up to N times the budget,
 * and a restart forgets the counts. One budget across a cluster needs a store every
 * node increments atomically, e.g. rate-limiter-flexible's RateLimiterMongo on the
 * cluster's MongoDB, with this memory limiter as its insuranceLimiter so an outage of
 * the store degrades to per-node limits instead of failing requests.
 */
import ipaddr from 'ipaddr.js';
import type { Middleware, ParameterizedContext } from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../envelope.js';
import { walletOf } from './bearer-auth.js';
import type { ClientIpState } from './client-ip.js';

export function rateLimit(options: { perMinute: number }): Middleware<ClientIpState> {
  return budgeted(options.perMinute, (ctx) => budgetKey(ctx.state.clientIp));
}

/**
 * Document 1's per-merchant read limit (remediation reads: per-order payment lists and
 * action polls), after the API key is checked: one budget per merchant account, whatever
 * address the requests come from. Its refusal is the global limit's 429, headers and all.
 */
export function merchantRateLimit(options: { perMinute: number }): Middleware<ClientIpState & { account: { merchantId: string } }> {
  return budgeted(options.perMinute, (ctx) => ctx.state.account.merchantId);
}

/**
 * Document 3's transaction-history limit, after the bearer token is checked: one budget
 * per signed-in wallet, whatever address or session its requests come from.
 */
export function walletRateLimit(options: { perMinute: number }): Middleware<ClientIpState> {
  return budgeted(options.perMinute, (ctx) => walletOf(ctx).address.toLowerCase());
}

function budgeted<S>(perMinute: number, keyOf: (ctx: ParameterizedContext<S>) => string): Middleware<S> {
  const limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  return async (ctx, next) => {
    const { allowed, result } = await consume(limiter, keyOf(ctx));
    ctx.set('x-rate-limit-remaining', String(result.remainingPoints));
    ctx.set('x-rate-limiter-resets-at', new Date(Date.now() + result.msBeforeNext).toISOString());
    if (!allowed) {
      ctx.set('x-retry-after', String(Math.max(1, Math.ceil(result.msBeforeNext / 1000))));
      throw new ApiError(429, 'Too many requests');
    }
    await next();
  };
}

/** The library rejects with the same result type when the budget is spent. */
async function consume(limiter: RateLimiterMemory, key: string): Promise<{ allowed: boolean; result: RateLimiterRes }> {
  try {
    return { allowed: true, result: await limiter.consume(key) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, result: rejection };
    throw rejection;
  }
}

/** `clientIp` is canonical already: IPv4-mapped addresses arrive as IPv4, so only a colon can make it IPv6. */
function budgetKey(clientIp: string): string {
  return clientIp.includes(':') && ipaddr.IPv6.isValid(clientIp) ? `${ipaddr.IPv6.networkAddressFromCIDR(`${clientIp}/64`).toString()}/64` : clientIp;
}
