/**
 * Redoc's standalone bundle (npm `redoc`), read from node_modules once when the docs
 * routes are built and served by the node itself, so the reference page needs no
 * other origin and works offline.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const REDOC_BUNDLE_PATH = '/docs/redoc.standalone.js';

/**
 * Redoc 2 always shows Redocly's logo in its sidebar, fetched from their CDN; the
 * page's CSP would refuse it (with a console error), so the bundle is served without
 * it: an empty src fails at once and Redoc drops the image. The browser test notices
 * if a new Redoc fetches it some other way.
 */
const REMOTE_LOGO = 'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"';

export interface RedocBundle {
  body: Buffer;
  /** What the page asks for: the path with the bundle's content hash as a query, so a year-long cache never serves a replaced bundle. */
  url: string;
}

export function loadRedocBundle(): RedocBundle {
  const source = readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  const body = Buffer.from(source.replace(REMOTE_LOGO, 'src:""'));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { body, url: `${REDOC_BUNDLE_PATH}?v=${hash}` };
}
