/**
 * GET /api/v1/openapi.json, GET /docs and the Redoc bundle the page loads: the API
 * description, built once at start (api-description.ts) and served as built.
 */
import { z } from 'zod';
import { standardAnswers } from '../openapi/answers.js';
import { REDOC_BUNDLE_PATH, type RedocBundle } from '../openapi/redoc-bundle.js';
import { REFERENCE_PAGE_CSP } from '../openapi/reference-page.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';

export const SPEC_PATH = '/api/v1/openapi.json';

/** The description as served: the document, the reference page's HTML and the Redoc bundle it loads. */
export interface DocsDependencies {
  document: object;
  page: string;
  bundle: Pick<RedocBundle, 'body'>;
}

export function docsOperations(): Operation<DocsDependencies>[] {
  return [documentOperation, pageOperation, bundleOperation];
}

const documentOperation = defineOperation({
  method: 'get',
  path: SPEC_PATH,
  operationId: 'getOpenApiDocument',
  tags: ['Service'],
  summary: 'This document',
  description: 'The one JSON answer not wrapped in the envelope, so OpenAPI tools can read it.',
  guard: 'none',
  answers: standardAnswers({ '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } }),
  handle: (deps: DocsDependencies) => (ctx) => {
    ctx.body = deps.document;
  },
});

const pageOperation = defineOperation({
  method: 'get',
  path: '/docs',
  operationId: 'getReferencePage',
  tags: ['Service'],
  summary: 'This document as a readable page',
  guard: 'none',
  answers: standardAnswers({ '200': { description: 'HTML', content: { 'text/html': { schema: z.string() } } } }),
  handle: (deps: DocsDependencies) => (ctx) => {
    ctx.set('content-security-policy', REFERENCE_PAGE_CSP);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = deps.page;
  },
});

const bundleOperation = defineOperation({
  method: 'get',
  path: REDOC_BUNDLE_PATH,
  operationId: 'getRedocBundle',
  tags: ['Service'],
  summary: 'The Redoc bundle the readable page runs',
  description:
    'Redoc’s standalone JavaScript, served by the node so the page loads nothing from another origin; not the envelope. The page asks for it under its content hash (`?v=`), so it is cached for a year.',
  guard: 'none',
  answers: standardAnswers({ '200': { description: 'JavaScript', content: { 'text/javascript': { schema: z.string() } } } }),
  handle: (deps: DocsDependencies) => (ctx) => {
    ctx.set('cache-control', 'public, max-age=31536000, immutable');
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = deps.bundle.body;
  },
});
