/**
 * GET /api/v1/openapi.json, GET /docs and the Redoc bundle the page loads: the API
 * description, built once at start.
 */
import type Router from '@koa/router';
import { formatUsdc } from '../../machines/money.js';
import { openApiDocument } from '../openapi/document.js';
import { REDOC_BUNDLE_PATH, loadRedocBundle } from '../openapi/redoc-bundle.js';
import { REFERENCE_PAGE_CSP, referencePage } from '../openapi/reference-page.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';

const SPEC_PATH = '/api/v1/openapi.json';

/** The document describes exactly what this gateway serves: the admin API, dead letters and metrics only where they are mounted, the landing page and demo orders only in development. */
export function docsRoutes(
  version: string,
  options: { orderMaxUsdc: bigint; adminToken: string | undefined; environment: string; deadLetters?: unknown; metrics?: unknown },
): Router<GatewayState> {
  const admin = Boolean(options.adminToken);
  const document = openApiDocument(version, {
    orderMaxUsdc: formatUsdc(options.orderMaxUsdc),
    development: options.environment === 'development',
    admin,
    deadLetters: admin && options.deadLetters !== undefined,
    metrics: admin && options.metrics !== undefined,
  });
  const bundle = loadRedocBundle();
  const page = referencePage({ title: `${document.info.title} ${document.info.version}`, specUrl: SPEC_PATH, bundleUrl: bundle.url });
  const router = exactRouter();
  router.get(SPEC_PATH, (ctx) => {
    ctx.body = document;
  });
  router.get('/docs', (ctx) => {
    ctx.set('content-security-policy', REFERENCE_PAGE_CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  });
  router.get(REDOC_BUNDLE_PATH, (ctx) => {
    ctx.set('cache-control', 'public, max-age=31536000, immutable');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = bundle.body;
  });
  return router;
}
