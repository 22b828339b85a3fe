/**
 * Routes a development node serves and a production one never mounts: POST /dev/demo-order,
 * which the landing page's "Try a checkout" button calls (gateway/dev/demo-orders.ts).
 */
import type Router from '@koa/router';
import { reply } from '../envelope.js';
import type { DemoOrders } from '../dev/demo-orders.js';
import { exactRouter } from '../routing.js';
import { demoOrderResult } from '../schemas/dev-resources.js';
import type { GatewayState } from '../state.js';

const DEV_AREA = '/dev';

export function devRoutes(demoOrders: DemoOrders): Router<GatewayState> {
  const router = exactRouter(DEV_AREA);
  router.post('/demo-order', async (ctx) => {
    reply(ctx, 201, 'Demo order created', demoOrderResult, await demoOrders.create());
  });
  return router;
}
