/**
 * The merchant's payment endpoints (API key): the payment list across orders, one
 * order's attempts (120 reads a minute per merchant, document 1's remediation-read
 * limit), and quote availability before an order is made.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { reply } from '../envelope.js';
import { merchantRateLimit } from '../middleware/rate-limit.js';
import { listPayments, orderPayments } from '../payments/payment-list.js';
import { quoteAvailability, type AvailabilityDependencies } from '../payments/quote-availability.js';
import { exactRouter } from '../routing.js';
import { orderPath } from '../orders/order-schemas.js';
import { listPaymentsQuery, quoteAvailabilityBody } from '../schemas/payment-schemas.js';
import { merchantPaymentList, orderPayments as orderPaymentsResource, quoteAvailability as quoteAvailabilityResource } from '../schemas/payment-resources.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

export interface PaymentRouteDependencies extends AvailabilityDependencies {
  system: ActorSystem;
  auth: Middleware<GatewayState>;
  body: Middleware<GatewayState>;
}

/** document 1, Limits: remediation reads. */
export const REMEDIATION_READS_PER_MINUTE = 120;

export function paymentRoutes(deps: PaymentRouteDependencies): Router<GatewayState> {
  const router = exactRouter('/api/v1');
  const remediationReads = merchantRateLimit({ perMinute: REMEDIATION_READS_PER_MINUTE });

  router.get('/merchants/me/payments', deps.auth, async (ctx) => {
    const query = parseOrThrow(listPaymentsQuery, ctx.query);
    reply(ctx, 200, 'Payments', merchantPaymentList, await listPayments(deps.system, ctx.state.account, query));
  });

  router.get('/merchants/me/orders/:orderId/payments', deps.auth, remediationReads, async (ctx) => {
    const { orderId } = parseOrThrow(orderPath, ctx.params);
    reply(ctx, 200, 'Payments of the order', orderPaymentsResource, await orderPayments(deps.system, ctx.state.account, orderId));
  });

  router.post('/merchants/me/quotes/availability', deps.auth, deps.body, async (ctx) => {
    const body = parseOrThrow(quoteAvailabilityBody, ctx.request.body);
    reply(ctx, 200, 'Quote availability', quoteAvailabilityResource, await quoteAvailability(deps, ctx.state.account, body));
  });

  return router;
}
