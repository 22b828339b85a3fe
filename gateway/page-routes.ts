/**
 * The routes of a page the gateway serves to browsers (the hosted checkout, the engineers'
 * page): its HTML shell, under its own Content-Security-Policy and never cached or sent on
 * as a Referer, and the script (browser-bundle.ts) and stylesheet the shell loads from this
 * origin.
 */
import type { default as Router, RouterMiddleware } from '@koa/router';
import type { Context } from 'koa';
import { exactRouter } from './routing.js';
import type { GatewayState } from './state.js';

interface PageSpec {
  /** Where the shell is served. */
  path: string;
  /** The shell's Content-Security-Policy. */
  csp: string;
  html: string;
  /** Runs before the shell: answers a request that is not for the page itself, or calls `next` to serve it. */
  guard?: RouterMiddleware<GatewayState>;
  scriptPath: string;
  script(): Promise<string>;
  stylePath: string;
  style: string;
}

/** A page's HTML shell, under its Content-Security-Policy, never cached nor sent on as a Referer. */
export function sendShell(ctx: Context, csp: string, html: string): void {
  ctx.set('content-security-policy', csp);
  // An address may carry a token (the checkout's): it must not travel on as a Referer to a merchant's logo host or success page.
  ctx.set('referrer-policy', 'no-referrer');
  ctx.set('cache-control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

export function pageRoutes(page: PageSpec): Router<GatewayState> {
  const router = pageAssetRoutes(page);
  router.get(page.path, ...(page.guard ? [page.guard] : []), (ctx) => sendShell(ctx, page.csp, page.html));
  return router;
}

/** The script and stylesheet of a page whose shell is served elsewhere (the landing page's, at the checkout's path). */
export function pageAssetRoutes(page: Pick<PageSpec, 'scriptPath' | 'script' | 'stylePath' | 'style'>): Router<GatewayState> {
  const router = exactRouter();
  router.get(page.scriptPath, async (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = await page.script();
  });
  router.get(page.stylePath, (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = page.style;
  });
  return router;
}
