/**
 * Document 3's maker records (no authentication, as the document declares for the read
 * and shows none for the rest): validate and create in the legacy format under /v1 and
 * the new one under /v2, and the read by processor and payee (docs/makers.md).
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { ProcessorName } from '../../machines/maker/index.js';
import { reply } from '../envelope.js';
import { MakerRegistry } from '../makers/maker-registry.js';
import { readCreateMaker, validateMaker } from '../makers/maker-requests.js';
import { exactRouter } from '../routing.js';
import { makerPath, makerRecord, makerValidity, type MakerApiVersion } from '../schemas/maker-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

export interface MakerRecordRouteDependencies {
  system: ActorSystem;
  now(): string;
  body: Middleware<GatewayState>;
}

export function makerRecordRoutes(deps: MakerRecordRouteDependencies): Router<GatewayState> {
  const router = exactRouter();
  const registry = new MakerRegistry(deps.system, deps.now);

  for (const version of ['v1', 'v2'] as const satisfies readonly MakerApiVersion[]) {
    router.post(`/${version}/makers/validate`, deps.body, (ctx) => {
      const { valid, message } = validateMaker(version, ctx.request.body);
      reply(ctx, 200, message, makerValidity, valid);
    });
    router.post(`/${version}/makers/create`, deps.body, async (ctx) => {
      reply(ctx, 200, 'Maker record', makerRecord, await registry.create(readCreateMaker(version, ctx.request.body)));
    });
  }

  router.get('/v1/makers/:processorName/:payeeDetails', async (ctx) => {
    const { processorName, payeeDetails } = parseOrThrow(makerPath, ctx.params);
    reply(ctx, 200, 'Maker record', makerRecord, await registry.read(processorName as ProcessorName, payeeDetails));
  });

  return router;
}
