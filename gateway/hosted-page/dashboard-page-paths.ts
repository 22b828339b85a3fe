/** The merchant dashboard page's place in the document: the page and what it loads, HTML, script and style, not the envelope. */
import { z } from 'zod';
import { standardAnswers } from '../openapi/answers.js';
import { NO_AUTH } from '../openapi/security.js';
import { DASHBOARD_PAGE_PATH, DASHBOARD_SCRIPT_PATH, DASHBOARD_STYLE_PATH } from './dashboard-page.js';

export function dashboardPagePaths() {
  const served = (operationId: string, summary: string, type: string, description?: string) => ({
    get: {
      operationId,
      tags: ['Dashboard'],
      summary,
      ...(description ? { description } : {}),
      security: NO_AUTH,
      responses: standardAnswers({ '200': { description: type, content: { [type]: { schema: z.string() } } } }),
    },
  });
  return {
    [DASHBOARD_PAGE_PATH]: served(
      'getDashboardPage',
      'The merchant dashboard page',
      'text/html',
      'A team member signs in with an e-mailed code, then reads and acts on orders, payments, webhooks, payouts, the API key and the team through the operations tagged Dashboard and those taking a dashboard session, with the session cookie.',
    ),
    [DASHBOARD_SCRIPT_PATH]: served('getDashboardScript', 'The merchant dashboard page’s script, bundled for browsers', 'text/javascript'),
    [DASHBOARD_STYLE_PATH]: served('getDashboardStyle', 'The merchant dashboard page’s stylesheet', 'text/css'),
  };
}
