/** GET /api/v1/openapi.json and GET /docs: the API description, built once at start. */
import Router from '@koa/router';
import { openApiDocument } from '../openapi/document.js';
import { renderReference } from '../openapi/reference-page.js';
import type { GatewayState } from '../state.js';

export function docsRoutes(version: string): Router<GatewayState> {
  const document = openApiDocument(version);
  const page = renderReference(document as unknown as Record<string, unknown>);
  const router = new Router<GatewayState>();
  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.body = document;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  });
  return router;
}
