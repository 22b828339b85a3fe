/**
 * The global limit of document 1: so many requests per minute per client address
 * (after client-ip.ts), in a fixed one-minute window that opens with the address's
 * first request. Every response says what is left and when the window resets, so a
 * well-behaved client can pace itself before it is refused. An IPv6 client is
 * counted by its /64: one subscriber is routinely given a whole /64, and counting
 * single addresses would let it rotate through 2^64 fresh budgets (and fill memory).
 *
 * Where the counts live is the budgets' business (gateway/limits/): in this process
 * on a node alone, in the cluster's store in a cluster, so that a client a balancer
 * spreads over N nodes gets the documented budget once, not N times; while the store
 * is down each node allows its share. Without `budgets` a limit counts in memory.
 */
import ipaddr from 'ipaddr.js';
import type { Middleware, ParameterizedContext } from 'koa';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { type Budget, Budgets } from '../limits/index.js';
import { ApiError } from '../envelope.js';
import { walletOf } from './bearer-auth.js';
import type { ClientIpState } from './client-ip.js';

export interface LimitOptions {
  perMinute: number;
  budgets?: Budgets;
}

export function rateLimit(options: LimitOptions): Middleware<ClientIpState> {
  return budgeted('address', options, (ctx) => budgetKey(ctx.state.clientIp));
}

/**
 * Document 1's per-merchant read limit (remediation reads: per-order payment lists and
 * action polls), after the API key is checked: one budget per merchant account, whatever
 * address the requests come from. Its refusal is the global limit's 429, headers and all.
 */
export function merchantRateLimit(name: string, options: LimitOptions): Middleware<ClientIpState & { account: { merchantId: string } }> {
  return budgeted(name, options, (ctx) => ctx.state.account.merchantId);
}

/**
 * Document 3's transaction-history limit, after the bearer token is checked: one budget
 * per signed-in wallet, whatever address or session its requests come from.
 */
export function walletRateLimit(options: LimitOptions): Middleware<ClientIpState> {
  return budgeted('wallet-history', options, (ctx) => walletOf(ctx).address.toLowerCase());
}

/** `name` tells one limit's counts from another's where they share a store: each limit names its own. */
function budgeted<S>(name: string, options: LimitOptions, keyOf: (ctx: ParameterizedContext<S>) => string): Middleware<S> {
  const budgets = options.budgets ?? Budgets.inMemory();
  const budget = budgets.budget(name, options.perMinute, 60);
  return async (ctx, next) => {
    const { allowed, result } = await consume(budget, keyOf(ctx));
    ctx.set('x-rate-limit-remaining', String(result.remainingPoints));
    ctx.set('x-rate-limiter-resets-at', new Date(budgets.now() + result.msBeforeNext).toISOString());
    if (!allowed) {
      ctx.set('x-retry-after', String(Math.max(1, Math.ceil(result.msBeforeNext / 1000))));
      throw new ApiError(429, 'Too many requests');
    }
    await next();
  };
}

/** The library rejects with the same result type when the budget is spent. */
async function consume(budget: Budget, key: string): Promise<{ allowed: boolean; result: RateLimiterRes }> {
  try {
    return { allowed: true, result: await budget.consume(key) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, result: rejection };
    throw rejection;
  }
}

/** `clientIp` is canonical already: IPv4-mapped addresses arrive as IPv4, so only a colon can make it IPv6. */
function budgetKey(clientIp: string): string {
  return clientIp.includes(':') && ipaddr.IPv6.isValid(clientIp) ? `${ipaddr.IPv6.networkAddressFromCIDR(`${clientIp}/64`).toString()}/64` : clientIp;
}
