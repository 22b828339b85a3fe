/** The API description this gateway serves, built once at start from the same options that decide what it mounts. */
import { formatUsdc } from '../../machines/money.js';
import { openApiDocument } from '../openapi/document.js';
import { loadRedocBundle } from '../openapi/redoc-bundle.js';
import { referencePage } from '../openapi/reference-page.js';
import { type DocsDependencies, SPEC_PATH } from './docs-operations.js';

/** The document describes exactly what this gateway serves: the admin API, dead letters and metrics only where they are mounted, the landing page and demo orders only in development. */
export function apiDescription(
  version: string,
  options: { orderMaxUsdc: bigint; adminToken: string | undefined; environment: string; deadLetters?: unknown; metrics?: unknown },
): DocsDependencies {
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
  return { document, page, bundle };
}
