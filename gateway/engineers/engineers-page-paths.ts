/** The engineers' page and its assets in the document: public, wherever the admin API is (they hold no data, and ask the engineer for the token themselves). */
import { z } from 'zod';
import { standardAnswers } from '../openapi/answers.js';
import { NO_AUTH } from '../openapi/security.js';
import { ENGINEERS_PATH, ENGINEERS_SCRIPT_PATH, ENGINEERS_STYLE_PATH } from './engineers-page.js';

export function engineersPagePaths() {
  return {
    [ENGINEERS_PATH]: {
      get: {
        operationId: 'getEngineersPage',
        tags: ['Admin'],
        summary: 'The engineers’ page: every machine’s state chart',
        description:
          'An HTML page without data, served without the admin token because a browser cannot send one when it opens a page. Its script asks for the admin token, keeps it in sessionStorage and calls the admin API with it (docs/charts.md).',
        security: NO_AUTH,
        responses: standardAnswers({ '200': { description: 'HTML', content: { 'text/html': { schema: z.string() } } } }),
      },
    },
    [ENGINEERS_SCRIPT_PATH]: asset('getEngineersScript', 'The engineers’ page script, bundled for browsers', 'text/javascript'),
    [ENGINEERS_STYLE_PATH]: asset('getEngineersStyle', 'The engineers’ page stylesheet', 'text/css'),
  };
}

function asset(operationId: string, summary: string, type: string) {
  return {
    get: {
      operationId,
      tags: ['Admin'],
      summary,
      security: NO_AUTH,
      responses: standardAnswers({ '200': { description: type, content: { [type]: { schema: z.string() } } } }),
    },
  };
}
