/**
 * A development node's landing page, at a bare `/` (the checkout link is `/` with an
 * order query; checkout-page.ts hands everything else here): where the reference and the
 * engineers' page are, and a "Try a checkout" button that asks POST /dev/demo-order for a
 * demo order and opens its checkout link (client/landing-app.ts). It holds no data and
 * loads nothing from another origin. A production node has no landing page: `/` alone is
 * not found there.
 */
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { browserBundle } from '../browser-bundle.js';
import { ENGINEERS_PATH } from '../engineers/engineers-page.js';
import { pageAssetRoutes, pageCsp, pageHtml, sendShell } from '../page-routes.js';
import type { GatewayState } from '../state.js';
import { pageStyle } from './page-style.js';

export const LANDING_SCRIPT_PATH = '/landing/app.js';
export const LANDING_STYLE_PATH = '/landing/app.css';

const STYLE = pageStyle('./landing.css');
const script = browserBundle(fileURLToPath(new URL('./client/landing-app.ts', import.meta.url)));

const CSP = pageCsp();

export interface LandingPage {
  /** Serves the page's shell; checkout-page.ts calls it for `/` without an order. */
  shell: Middleware<GatewayState>;
  /** Its script and stylesheet. */
  assets: Router<GatewayState>;
}

/** `engineersPage`: whether the node serves the engineers' page (only with an admin token). */
export function landingPage(options: { engineersPage: boolean }): LandingPage {
  const html = page(options.engineersPage);
  return {
    shell: (ctx) => sendShell(ctx, CSP, html),
    assets: pageAssetRoutes({ scriptPath: LANDING_SCRIPT_PATH, script, stylePath: LANDING_STYLE_PATH, style: STYLE }),
  };
}

function page(engineersPage: boolean): string {
  const engineers = engineersPage
    ? `<li><a href="${ENGINEERS_PATH}">The engineers’ page</a>: every machine drawn as a state chart, and any actor inspected through time. It asks for the admin token: <code>PEER_ADMIN_TOKEN</code>, or the one <code>npm start</code> made and printed, kept in the data folder’s <code>admin-token</code> file.</li>`
    : '<li>The engineers’ page is off: this node has no admin token. Set <code>PEER_ADMIN_TOKEN</code> to serve it.</li>';
  return pageHtml({
    title: 'Peer platform · development node',
    stylePath: LANDING_STYLE_PATH,
    scriptPath: LANDING_SCRIPT_PATH,
    body: `<main class="landing">
<h1>Peer platform</h1>
<p class="lead">A development node: the gateway, a local chain with makers’ liquidity, the attestation service and a simulator of the payment apps, all on this machine.</p>
<section aria-labelledby="try">
<h2 id="try">Pay an order</h2>
<p>Make a 25.00 USD order for the demo merchant and open its checkout page. Pay it with Venmo in the simulator, or in USDC from the local test wallet.</p>
<button id="try-checkout" type="button" class="primary">Try a checkout</button>
<p id="status" class="status" role="status"></p>
</section>
<section aria-labelledby="tools">
<h2 id="tools">Look around</h2>
<ul>
<li><a href="/docs">The API reference</a>: every endpoint, with its fields and error codes.</li>
<li><a href="/dashboard">The merchant dashboard</a>: orders, payments and their actions, webhooks, payouts, the API key and the team. The demo merchant's Owner is <code>owner@demo.example.com</code>; add others with <code>npm run admin -- add-owner MERCHANT_ID --email you@example.com</code>. Without <code>SMTP_URL</code> the sign-in code is caught at <code>/dev/mail</code>.</li>
${engineers}
<li><a href="/v1/health-check">The health check</a>.</li>
</ul>
</section>
</main>`,
  });
}
