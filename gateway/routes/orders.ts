/** The order endpoints of document 1: create, the merchant's list, and the hosted read. */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { RateSource } from '../../actors/adapters/rates/rate-source.js';
import { reply, respond, sendRendered } from '../envelope.js';
import type { MerchantAccounts } from '../merchants/merchant-accounts.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';
import { createOrder, type CreateOrderDependencies } from '../orders/create-order.js';
import type { HostedOrders } from '../orders/hosted-orders.js';
import { listOrders } from '../orders/order-list.js';
import { createOrderBody, listOrdersQuery, orderPath } from '../schemas/order-schemas.js';
import { createOrderResult, merchantOrderList } from '../schemas/order-resources.js';
import { V0_CREATE_ORDER_FIELDS } from '../schemas/retired-fields.js';
import { parseOrThrow } from '../validation.js';

export interface OrderRouteDependencies extends CreateOrderDependencies {
  system: ActorSystem;
  accounts: MerchantAccounts;
  rates: RateSource;
  /** Authenticates the API key and puts the merchant account on `ctx.state.account`. */
  auth: Middleware<GatewayState>;
  body: Middleware<GatewayState>;
  hostedOrders: HostedOrders;
}

export function orderRoutes(deps: OrderRouteDependencies): Router<GatewayState> {
  const router = exactRouter('/api/v1');
  const { hostedOrders } = deps;

  router.post('/orders', deps.auth, deps.body, async (ctx) => {
    const body = parseOrThrow(createOrderBody, ctx.request.body, V0_CREATE_ORDER_FIELDS);
    const result = await createOrder(deps, ctx.state.account, body);
    if (result.created) reply(ctx, 201, 'Order created', createOrderResult, { order: result.order, orderToken: result.orderToken });
    else reply(ctx, 200, 'Order already created for this idempotencyKey', createOrderResult, { order: result.order, orderToken: null, idempotentReplay: true });
  });

  router.get('/merchants/me/orders', deps.auth, async (ctx) => {
    const query = parseOrThrow(listOrdersQuery, ctx.query);
    reply(ctx, 200, 'Orders', merchantOrderList, await listOrders(deps.system, ctx.state.account, query));
  });

  router.get('/orders/:orderId', async (ctx) => {
    const { orderId } = parseOrThrow(orderPath, ctx.params);
    const answer = await hostedOrders.answer(orderId);
    if (!answer) return respond(ctx, 404, 'Order not found', null, 'NOT_FOUND');
    sendRendered(ctx, answer);
  });

  return router;
}
