/**
 * The payout customer's checkout page at `/cashout/{payoutId}?token=<linkToken>`, the
 * checkoutUrl a payout is created with (document 2; docs/payout-checkout.md). The server sends
 * a shell and the page's configuration for anything shaped as a payout id (anything else is
 * not found, as an unknown path is); the page itself (client/cashout-app.ts) reads the
 * checkout state with the link's token, which is where a wrong link and an unknown payout are
 * told, alike. Its Content-Security-Policy allows this origin and, for connecting the
 * customer's account, the attestation service and, in the embedded default, the
 * payment-platform simulator: nothing else.
 */
import type Router from '@koa/router';
import { respond } from '../envelope.js';
import { idPattern } from '../ids.js';
import { configScript, pageCsp, pageHtml, pageRoutes } from '../page-routes.js';
import type { GatewayState } from '../state.js';
import { cashoutScript } from './client-bundle.js';
import type { CashoutPageConfig } from './client/cashout-page-config.js';
import { pageStyle } from './page-style.js';

export const CASHOUT_PAGE_PATH = '/cashout/:payoutId';
// Not under /cashout/, where a payout id could be any segment.
export const CASHOUT_SCRIPT_PATH = '/cashout-page/app.js';
export const CASHOUT_STYLE_PATH = '/cashout-page/app.css';
const PAYOUT_ID = idPattern('po');
/** Where a development node shows the mail it caught (gateway/dev/mail-operations.ts). */
const CAUGHT_MAIL_PATH = '/dev/mail';

/** The checkout page's layout and controls, then this page's own. */
const STYLE = pageStyle('./checkout.css', './cashout.css');

/**
 * `connect`: where an account connection signs in and seals, as the order checkout page is told.
 * `caughtMail`: whether this node catches its mail and shows it at /dev/mail (development without SMTP_URL), so the page links there.
 */
export function cashoutPageRoutes(options: { connect: Omit<CashoutPageConfig, 'caughtMailUrl'>; caughtMail: boolean }): Router<GatewayState> {
  const { simulatorUrl, attestationServiceUrl, enclave, chainId } = options.connect;
  const config: CashoutPageConfig = { simulatorUrl, attestationServiceUrl, enclave, chainId, caughtMailUrl: options.caughtMail ? CAUGHT_MAIL_PATH : null };
  const origins = [simulatorUrl, attestationServiceUrl].filter((url): url is string => Boolean(url)).map((url) => new URL(url).origin);
  return pageRoutes({
    path: CASHOUT_PAGE_PATH,
    csp: pageCsp({ connect: `'self' ${origins.join(' ')}`.trim() }),
    html: page(config),
    guard: (ctx, next) => (PAYOUT_ID.test(ctx.params.payoutId ?? '') ? next() : respond(ctx, 404, 'Not found', null, 'NOT_FOUND')),
    scriptPath: CASHOUT_SCRIPT_PATH,
    script: cashoutScript,
    stylePath: CASHOUT_STYLE_PATH,
    style: STYLE,
  });
}

function page(config: CashoutPageConfig): string {
  return pageHtml({
    title: 'Your payout',
    stylePath: CASHOUT_STYLE_PATH,
    scriptPath: CASHOUT_SCRIPT_PATH,
    head: configScript('cashout-config', config),
    body: `<main id="cashout" class="checkout cashout" aria-busy="true">
<p class="loading">Loading your payout…</p>
</main>`,
  });
}
