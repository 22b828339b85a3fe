/**
 * What a development node serves and a production one never mounts: POST /dev/demo-order,
 * which the landing page's "Try a checkout" button calls (demo-orders.ts).
 */
import { reply } from '../envelope.js';
import { failure, standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { demoOrderResult } from '../schemas/dev-resources.js';
import { DEMO_MERCHANT_NOT_FOUND, type DemoOrders } from './demo-orders.js';

export interface DevDependencies {
  demoOrders: DemoOrders;
}

export function devOperations(): Operation<DevDependencies>[] {
  return [demoOrderOperation];
}

const demoOrderOperation = defineOperation({
  method: 'post',
  path: '/dev/demo-order',
  operationId: 'createDemoOrder',
  tags: ['Development'],
  summary: 'Make a demo order (development only)',
  description:
    'A 25.00 USD order for the demo merchant `npm start` opens on a new data folder, made as POST /api/v1/orders makes it with that merchant’s live key, with its checkout link. The landing page’s “Try a checkout” button calls it. No body. Development nodes only: it is not mounted in production.',
  guard: 'none',
  answers: standardAnswers(
    {
      '201': success(201, demoOrderResult, 'The order, its token and its checkout link'),
      '400': failure(400, [{ code: 'DESTINATION_REQUIRED', when: 'the demo merchant’s wallet was taken off its profile' }]),
      '403': failure(403, [{ code: 'TIER_REQUIRED', when: 'the demo merchant’s plan was taken off' }]),
      '404': failure(404, [DEMO_MERCHANT_NOT_FOUND]),
    },
    { asksActors: true, unavailable: [{ code: 'RATE_UNAVAILABLE', when: 'the USD rate is stale and the rate source cannot be reached; retry shortly' }] },
  ),
  handle: (deps: DevDependencies) => async (ctx) => {
    reply(ctx, 201, 'Demo order created', demoOrderResult, await deps.demoOrders.create());
  },
});
