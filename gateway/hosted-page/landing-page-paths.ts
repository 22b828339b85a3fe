/** The landing page's script and stylesheet in the document (development only; its shell is `/`, checkout-page-paths.ts). */
import { z } from 'zod';
import { standardAnswers } from '../openapi/answers.js';
import { NO_AUTH } from '../openapi/security.js';
import { LANDING_SCRIPT_PATH, LANDING_STYLE_PATH } from './landing-page.js';

export function landingPagePaths() {
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
    [LANDING_SCRIPT_PATH]: asset('getLandingScript', 'The landing page’s script, bundled for browsers', 'text/javascript'),
    [LANDING_STYLE_PATH]: asset('getLandingStyle', 'The landing page’s stylesheet', 'text/css'),
  };
}
