/** What only a development node serves: demo orders, and the landing page's script and stylesheet (its shell is `/`, hosted-page/checkout-page-paths.ts). */
import { z } from 'zod';
import { DEMO_MERCHANT_NOT_FOUND } from '../dev/demo-orders.js';
import { LANDING_SCRIPT_PATH, LANDING_STYLE_PATH } from '../hosted-page/landing-page.js';
import { demoOrderResult } from '../schemas/dev-resources.js';
import { failure, standardAnswers, success } from './answers.js';
import { NO_AUTH } from './security.js';

export function devPaths() {
  const asset = (operationId: string, summary: string, type: string) => ({
    get: {
      operationId,
      tags: ['Development'],
      summary,
      security: NO_AUTH,
      responses: standardAnswers({ '200': { description: type, content: { [type]: { schema: z.string() } } } }),
    },
  });
  return {
    '/dev/demo-order': {
      post: {
        operationId: 'createDemoOrder',
        tags: ['Development'],
        summary: 'Make a demo order (development only)',
        description:
          'A 25.00 USD order for the demo merchant `npm start` opens on a new data folder, made as POST /api/v1/orders makes it with that merchant’s live key, with its checkout link. The landing page’s “Try a checkout” button calls it. No body. Development nodes only: it is not mounted in production.',
        security: NO_AUTH,
        responses: standardAnswers(
          {
            '201': success(201, demoOrderResult, 'The order, its token and its checkout link'),
            '400': failure(400, [{ code: 'DESTINATION_REQUIRED', when: 'the demo merchant’s wallet was taken off its profile' }]),
            '403': failure(403, [{ code: 'TIER_REQUIRED', when: 'the demo merchant’s plan was taken off' }]),
            '404': failure(404, [DEMO_MERCHANT_NOT_FOUND]),
          },
          { asksActors: true, unavailable: [{ code: 'RATE_UNAVAILABLE', when: 'the USD rate is stale and the rate source cannot be reached; retry shortly' }] },
        ),
      },
    },
    [LANDING_SCRIPT_PATH]: asset('getLandingScript', 'The landing page’s script, bundled for browsers', 'text/javascript'),
    [LANDING_STYLE_PATH]: asset('getLandingStyle', 'The landing page’s stylesheet', 'text/css'),
  };
}
