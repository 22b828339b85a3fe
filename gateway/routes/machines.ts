/**
 * The admin API's machine charts: GET /internal/v1/machines lists every machine of the
 * running code, GET /internal/v1/machines/{name} answers one's chart graph, which the
 * engineers' page (gateway/engineers/) lays out and draws. The routes go on the admin
 * router (routes/admin.ts), so only the admin token reaches them.
 */
import type Router from '@koa/router';
import { reply, respond } from '../envelope.js';
import type { MachineCharts } from '../engineers/machine-charts.js';
import { machineChart, machineList, machinePath } from '../schemas/machine-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

/** Adds the machine routes to the admin router (prefix `/internal/v1`). */
export function addMachineRoutes(router: Router<GatewayState>, charts: MachineCharts): void {
  router.get('/machines', async (ctx) => {
    reply(ctx, 200, 'Machines', machineList, await charts.list());
  });

  router.get('/machines/:name', async (ctx) => {
    const { name } = parseOrThrow(machinePath, ctx.params);
    const definition = await charts.definition(name);
    if (!definition) return respond(ctx, 404, 'Machine not found', null, 'MACHINE_NOT_FOUND');
    reply(ctx, 200, 'Machine chart', machineChart, definition);
  });
}
