/**
 * The engineers' charts, documented exactly when they are served: wherever the admin API
 * is. The machine list and charts are admin operations; the engineers' page and its
 * assets are public (they hold no data, and ask the engineer for the token themselves).
 */
import { z } from 'zod';
import { ENGINEERS_PATH, ENGINEERS_SCRIPT_PATH, ENGINEERS_STYLE_PATH } from '../engineers/engineers-page.js';
import { machineChart, machineList, machinePath } from '../schemas/machine-schemas.js';
import { failure, invalid, standardAnswers, success } from './answers.js';
import { ADMIN_TOKEN, NO_AUTH, adminRefusal } from './security.js';

export function machinePaths() {
  return {
    '/internal/v1/machines': {
      get: {
        operationId: 'listMachines',
        tags: ['Admin'],
        summary: 'List the machines of the running code',
        description:
          'Every XState machine in machines/, by chart name, with the actor kind that runs it on this node and its machine version (docs/charts.md).',
        security: ADMIN_TOKEN,
        responses: standardAnswers({
          '200': success(200, machineList, 'The machines, by name'),
          ...adminRefusal,
        }),
      },
    },
    '/internal/v1/machines/{name}': {
      get: {
        operationId: 'getMachineChart',
        tags: ['Admin'],
        summary: 'Read a machine’s chart graph',
        description:
          'Its states, nested, and its transitions with their events, guards, delays, actions and targets: what the engineers’ page lays out and draws (docs/charts.md).',
        security: ADMIN_TOKEN,
        requestParams: { path: machinePath },
        responses: standardAnswers({
          '200': success(200, machineChart, 'The chart graph'),
          '400': invalid('name is not a chart name'),
          ...adminRefusal,
          '404': failure(404, [{ code: 'MACHINE_NOT_FOUND', when: 'no machine has that name' }]),
        }),
      },
    },
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
