/**
 * The admin API's machine charts: GET /internal/v1/machines lists every machine of the
 * running code, GET /internal/v1/machines/{name} answers one's chart graph, which the
 * engineers' page lays out and draws. Mounted in the admin area
 * (gateway/admin/admin-area.ts), so only the admin token reaches them.
 */
import { reply, respond } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { adminRefusal } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { machineChart, machineList, machinePath } from '../schemas/machine-schemas.js';
import type { MachineCharts } from './machine-charts.js';

export interface MachineDependencies {
  machines: MachineCharts;
}

export function machineOperations(): Operation<MachineDependencies>[] {
  return [listOperation, chartOperation];
}

const listOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/machines',
  operationId: 'listMachines',
  tags: ['Admin'],
  summary: 'List the machines of the running code',
  description: 'Every XState machine in machines/, by chart name, with the actor kind that runs it on this node and its machine version (docs/charts.md).',
  guard: 'adminToken',
  answers: standardAnswers({
    '200': success(200, machineList, 'The machines, by name'),
    ...adminRefusal,
  }),
  handle: (deps: MachineDependencies) => async (ctx) => {
    reply(ctx, 200, 'Machines', machineList, await deps.machines.list());
  },
});

const chartOperation = defineOperation({
  method: 'get',
  path: '/internal/v1/machines/:name',
  operationId: 'getMachineChart',
  tags: ['Admin'],
  summary: 'Read a machine’s chart graph',
  description:
    'Its states, nested, and its transitions with their events, guards, delays, actions and targets: what the engineers’ page lays out and draws (docs/charts.md).',
  guard: 'adminToken',
  request: { path: machinePath },
  answers: standardAnswers({
    '200': success(200, machineChart, 'The chart graph'),
    '400': invalid('name is not a chart name'),
    ...adminRefusal,
    '404': failure(404, [{ code: 'MACHINE_NOT_FOUND', when: 'no machine has that name' }]),
  }),
  handle:
    (deps: MachineDependencies) =>
    async (ctx, { path }) => {
      const definition = await deps.machines.definition(path.name);
      if (!definition) return respond(ctx, 404, 'Machine not found', null, 'MACHINE_NOT_FOUND');
      reply(ctx, 200, 'Machine chart', machineChart, definition);
    },
});
