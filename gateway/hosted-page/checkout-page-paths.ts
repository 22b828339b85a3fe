/** The hosted checkout page's place in the document: the page and what it loads, HTML, script and style, not the envelope. */
import { z } from 'zod';
import { failure, standardAnswers } from '../openapi/answers.js';
import { NO_AUTH } from '../openapi/security.js';
import { SCRIPT_PATH, STYLE_PATH } from './checkout-page.js';

/** `development`: a bare `/` is the landing page there, not a 404. */
export function checkoutPagePaths(development: boolean) {
  const asset = (operationId: string, summary: string, type: string) => ({
    get: {
      operationId,
      tags: ['Checkout'],
      summary,
      security: NO_AUTH,
      responses: standardAnswers({ '200': { description: type, content: { [type]: { schema: z.string() } } } }),
    },
  });
  return {
    '/': {
      get: {
        operationId: 'getCheckoutPage',
        tags: ['Checkout'],
        summary: development ? 'The hosted checkout page, or the landing page' : 'The hosted checkout page',
        description: [
          'The checkout link of an order: `/?order=<orderId>&token=<orderToken>`, as the Peer SDK builds it. The page reads the hosted order and calls the checkout operations with the token.',
          development
            ? 'Without `order`, this development node’s landing page: links to the reference and the engineers’ page, and a button that makes a demo order (POST /dev/demo-order) and opens its link.'
            : 'Without `order`, there is no page here: 404.',
        ].join(' '),
        security: NO_AUTH,
        requestParams: {
          query: z.object({
            order: development
              ? z.string().optional().meta({ description: 'The order id; without it, the landing page' })
              : z.string().meta({ description: 'The order id' }),
            token: z.string().optional().meta({ description: 'The order token' }),
          }),
        },
        responses: standardAnswers({
          '200': { description: 'HTML', content: { 'text/html': { schema: z.string() } } },
          ...(development ? {} : { '404': failure(404, [{ code: 'NOT_FOUND', when: 'no order query parameter' }]) }),
        }),
      },
    },
    [SCRIPT_PATH]: asset('getCheckoutScript', 'The checkout page’s script, bundled for browsers', 'text/javascript'),
    [STYLE_PATH]: asset('getCheckoutStyle', 'The checkout page’s stylesheet', 'text/css'),
  };
}
