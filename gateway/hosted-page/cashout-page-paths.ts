/** The payout checkout page's place in the document: the page and what it loads, HTML, script and style, not the envelope. */
import { z } from 'zod';
import { failure, standardAnswers } from '../openapi/answers.js';
import { NO_AUTH } from '../openapi/security.js';
import { resourceId } from '../schemas/common.js';
import { CASHOUT_SCRIPT_PATH, CASHOUT_STYLE_PATH } from './cashout-page.js';

export function cashoutPagePaths() {
  const asset = (operationId: string, summary: string, type: string) => ({
    get: {
      operationId,
      tags: ['Payout checkout'],
      summary,
      security: NO_AUTH,
      responses: standardAnswers({ '200': { description: type, content: { [type]: { schema: z.string() } } } }),
    },
  });
  return {
    '/cashout/{payoutId}': {
      get: {
        operationId: 'getCashoutPage',
        tags: ['Payout checkout'],
        summary: 'The payout checkout page',
        description:
          'A payout’s checkoutUrl: `/cashout/<payoutId>?token=<linkToken>`. The customer waits for the payout to be funded, signs in with an e-mailed code, chooses how to be paid and follows the listing until buyers have paid it. The page calls the payout checkout operations with the token: a wrong token and an unknown payout are what the page then reads (401 CASHOUT_TOKEN_INVALID) and says. A path that is not a payout id is not found.',
        security: NO_AUTH,
        requestParams: {
          path: z.object({ payoutId: resourceId('po', 'a payout') }),
          query: z.object({ token: z.string().optional().meta({ description: 'The link token, from the checkoutUrl' }) }),
        },
        responses: standardAnswers({
          '200': { description: 'HTML', content: { 'text/html': { schema: z.string() } } },
          '404': failure(404, [{ code: 'NOT_FOUND', when: 'payoutId is not a payout id (po_ and 24 letters or digits)' }]),
        }),
      },
    },
    [CASHOUT_SCRIPT_PATH]: asset('getCashoutScript', 'The payout checkout page’s script, bundled for browsers', 'text/javascript'),
    [CASHOUT_STYLE_PATH]: asset('getCashoutStyle', 'The payout checkout page’s stylesheet', 'text/css'),
  };
}
