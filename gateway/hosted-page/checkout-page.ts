/**
 * The hosted checkout page at `/?order=<id>&token=<orderToken>`, the address the Peer SDK
 * builds for an order (document 1: the order and token query parameters). The server
 * sends a shell and the page's configuration; the page itself (client/) reads the hosted
 * order and drives the customer's endpoints with the token. Its Content-Security-Policy
 * allows this origin, and for the buyer's proof the attestation service and, in the
 * embedded default, the payment-platform simulator and the conversion provider's test
 * wallet: nothing else.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { respond } from '../envelope.js';
import { configScript, pageCsp, pageHtml, pageRoutes } from '../page-routes.js';
import type { GatewayState } from '../state.js';
import { checkoutScript } from './client-bundle.js';
import type { CheckoutPageConfig } from './client/page-config.js';
import { pageStyle } from './page-style.js';

export const SCRIPT_PATH = '/checkout/app.js';
export const STYLE_PATH = '/checkout/app.css';

const STYLE = pageStyle('./checkout.css');

/** `landing`: what a bare `/` (no order query) serves, a development node's landing page; without it, `/` alone is not found. */
export function checkoutPageRoutes(config: CheckoutPageConfig, landing?: Middleware<GatewayState>): Router<GatewayState> {
  const origins = [config.simulatorUrl, config.conversionSimulatorUrl, config.attestationServiceUrl]
    .filter((url): url is string => Boolean(url))
    .map((url) => new URL(url).origin);
  const csp = pageCsp({ img: "'self' https: data:", connect: `'self' ${origins.join(' ')}`.trim() });
  return pageRoutes({
    path: '/',
    csp,
    html: page(config),
    // Only an order's address is the page: `/` alone is the landing page or not found.
    guard: (ctx, next) => (typeof ctx.query.order === 'string' ? next() : landing ? landing(ctx, next) : respond(ctx, 404, 'Not found', null, 'NOT_FOUND')),
    scriptPath: SCRIPT_PATH,
    script: checkoutScript,
    stylePath: STYLE_PATH,
    style: STYLE,
  });
}

function page(config: CheckoutPageConfig): string {
  return pageHtml({
    title: 'Checkout',
    stylePath: STYLE_PATH,
    scriptPath: SCRIPT_PATH,
    head: configScript('checkout-config', config),
    body: `<main id="checkout" class="checkout" aria-busy="true">
<p class="loading">Loading your checkout…</p>
</main>
<div id="announcer" class="visually-hidden" aria-live="polite"></div>`,
  });
}
