/**
 * The merchant dashboard page at `/dashboard` (docs/dashboard-auth.md): one HTML shell and its
 * bundled script (client/dashboard-app.ts), which signs a team member in and reads and acts
 * through the node's own API with the session cookie. Its Content-Security-Policy allows this
 * origin alone: the page loads nothing from elsewhere and talks to nothing else.
 */
import type Router from '@koa/router';
import { configScript, pageCsp, pageHtml, pageRoutes } from '../page-routes.js';
import type { GatewayState } from '../state.js';
import { dashboardScript } from './client-bundle.js';
import type { DashboardPageConfig } from './client/dashboard-page-config.js';
import { pageStyle } from './page-style.js';

export const DASHBOARD_PAGE_PATH = '/dashboard';
export const DASHBOARD_SCRIPT_PATH = '/dashboard-page/app.js';
export const DASHBOARD_STYLE_PATH = '/dashboard-page/app.css';
/** Where a development node shows the mail it caught (gateway/dev/mail-operations.ts). */
const CAUGHT_MAIL_PATH = '/dev/mail';

const STYLE = pageStyle('./dashboard.css');

/** `caughtMail`: whether this node catches its mail and shows it at /dev/mail (development without SMTP_URL), so the sign-in links there. */
export function dashboardPageRoutes(options: { caughtMail: boolean }): Router<GatewayState> {
  const config: DashboardPageConfig = { caughtMailUrl: options.caughtMail ? CAUGHT_MAIL_PATH : null };
  return pageRoutes({
    path: DASHBOARD_PAGE_PATH,
    csp: pageCsp(),
    html: pageHtml({
      title: 'Merchant dashboard',
      stylePath: DASHBOARD_STYLE_PATH,
      scriptPath: DASHBOARD_SCRIPT_PATH,
      head: configScript('dashboard-config', config),
      body: `<div id="dashboard" class="dashboard" aria-busy="true">
<p class="loading">Loading the dashboard…</p>
</div>
<p id="announcer" class="visually-hidden" aria-live="polite"></p>`,
    }),
    scriptPath: DASHBOARD_SCRIPT_PATH,
    script: dashboardScript,
    stylePath: DASHBOARD_STYLE_PATH,
    style: STYLE,
  });
}
