/**
 * Document 3's provider files (no authentication): the stable and mobile manifests and
 * one template per platform action, at `{actionType}.json`. The `.json` is part of the
 * route's path, so a name without it is an unknown path (404 NOT_FOUND); a platform or
 * action nobody defined is a 404 of its own (gateway/providers/provider-files.ts).
 */
import type Router from '@koa/router';
import { sendRendered } from '../envelope.js';
import { ProviderFiles } from '../providers/provider-files.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';

export function providerRoutes(): Router<GatewayState> {
  const files = new ProviderFiles();
  const router = exactRouter('/providers');

  router.get('/providers.json', (ctx) => sendRendered(ctx, files.manifest('stable')));
  // Before the stable template's route, which would take `mobile` for a platform and `providers` for an action.
  router.get('/mobile/providers.json', (ctx) => sendRendered(ctx, files.manifest('mobile')));
  router.get('/mobile/:platform/:actionType.json', (ctx) => sendRendered(ctx, files.template('mobile', ctx.params.platform!, ctx.params.actionType!)));
  router.get('/:platform/:actionType.json', (ctx) => sendRendered(ctx, files.template('stable', ctx.params.platform!, ctx.params.actionType!)));

  return router;
}
