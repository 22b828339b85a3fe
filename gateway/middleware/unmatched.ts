/**
 * The last middleware: answers, in the envelope, every request no route served.
 *
 * - A method outside HTTP's standard set (PURGE, TRACE, WebDAV's…) is 501 on any path:
 *   the API implements it nowhere.
 * - An unknown path is 404, whatever the standard method.
 * - A known path with another method is 405 with `Allow`; OPTIONS lists the same
 *   methods in a 200. No CORS headers are ever sent (docs/api-conventions.md).
 *
 * Known paths are the ones the routers matched on their way here (`ctx.matched`), so
 * an area guard that refused first (guarded-area.ts) reveals none of this.
 */
import type { Layer } from '@koa/router';
import type { Middleware } from 'koa';
import { ApiError, respond } from '../envelope.js';

const STANDARD_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function unmatched(): Middleware {
  return (ctx) => {
    if (!STANDARD_METHODS.has(ctx.method)) throw new ApiError(501, 'Method not implemented', 'NOT_IMPLEMENTED');
    const matched = (ctx as { matched?: Layer[] }).matched ?? [];
    const methods = matched.flatMap((layer) => layer.methods);
    if (methods.length === 0) throw new ApiError(404, 'Not found', 'NOT_FOUND');
    const allowed = [...new Set([...methods, 'OPTIONS'])].sort();
    ctx.set('allow', allowed.join(', '));
    if (ctx.method === 'OPTIONS') return respond(ctx, 200, 'Allowed methods', { methods: allowed });
    throw new ApiError(405, 'Method not allowed', 'METHOD_NOT_ALLOWED');
  };
}
