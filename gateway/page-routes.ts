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

/**
 * A page's Content-Security-Policy: this origin's script, style and connections only.
 * `img`, `connect`: the img-src and connect-src sources, where a page needs more.
 */
export function pageCsp(sources: { img?: string; connect?: string } = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${sources.img ?? "'self' data:"}`,
    `connect-src ${sources.connect ?? "'self'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A page's HTML document: a head that loads its stylesheet and script from this origin (`head`: more elements between the two), and `body`. */
export function pageHtml(page: { title: string; stylePath: string; scriptPath: string; head?: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${page.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${page.stylePath}">
${page.head === undefined ? '' : `${page.head}\n`}<script type="module" src="${page.scriptPath}"></script>
</head>
<body>
${page.body}
</body>
</html>
`;
}

/** A page's configuration as a JSON script element its client reads; `<` escaped so that no value can close the element. */
export function configScript(id: string, config: unknown): string {
  return `<script type="application/json" id="${id}">${JSON.stringify(config).replaceAll('<', '\\u003c')}</script>`;
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
