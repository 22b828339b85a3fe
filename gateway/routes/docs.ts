/** GET /api/v1/openapi.json and GET /docs: the API description, built once at start. */
import type Router from '@koa/router';
import { formatUsdc } from '../../machines/money.js';
import { openApiDocument } from '../openapi/document.js';
import { renderReference } from '../openapi/reference-page.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';

export function docsRoutes(version: string, options: { orderMaxUsdc: bigint; deadLetters?: unknown; metrics?: unknown }): Router<GatewayState> {
  const document = openApiDocument(version, {
    orderMaxUsdc: formatUsdc(options.orderMaxUsdc),
    deadLetters: options.deadLetters !== undefined,
    metrics: options.metrics !== undefined,
  });
  const page = renderReference(document as unknown as Record<string, unknown>);
  const router = exactRouter();
  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.body = document;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  });
  return router;
}
