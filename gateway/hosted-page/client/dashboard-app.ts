/**
 * The merchant dashboard at `/dashboard`: a team member signs in with an e-mailed code, then
 * works on the business's orders (their attempts, cancels and remediation actions), webhooks,
 * payouts, API key and team, in LIVE or SANDBOX. Everything is read from the node's own API with
 * the session cookie; which screen shows is in the address's hash, so reload and back work.
 * A session that ends (idle, signed out elsewhere, removed) brings the sign-in back.
 */
import { ActionTracker } from './dashboard-actions.js';
import { apiKeyView } from './dashboard-api-key.js';
import { DashboardApi, DashboardError, type DashboardSession } from './dashboard-api.js';
import { auditView } from './dashboard-audit.js';
import { brandingView } from './dashboard-branding.js';
import { frameHeader } from './dashboard-frame.js';
import { orderView } from './dashboard-order.js';
import { ordersView } from './dashboard-orders.js';
import type { DashboardPageConfig } from './dashboard-page-config.js';
import { passkeysView } from './dashboard-passkeys.js';
import { payoutView } from './dashboard-payout.js';
import { payoutsView } from './dashboard-payouts.js';
import { disputesView } from './dashboard-disputes.js';
import { signInScreen } from './dashboard-sign-in.js';
import { teamView } from './dashboard-team.js';
import { errorBox } from './dashboard-ui.js';
import { type Route, routeOf, type View, type ViewContext } from './dashboard-view.js';
import { deliveriesView, webhooksView } from './dashboard-webhooks.js';
import { h } from './dom.js';

const root = document.getElementById('dashboard')!;
const config = JSON.parse(document.getElementById('dashboard-config')!.textContent ?? '{}') as DashboardPageConfig;
const api = new DashboardApi();
const actions = new ActionTracker(api);
let session: DashboardSession | null = null;
/** Each render's number: an answer that arrives after a newer render started is dropped. */
let rendering = 0;

function viewOf(route: Route): View {
  switch (route.name) {
    case 'orders':
      return route.id ? orderView : ordersView;
    case 'webhooks':
      return route.id ? deliveriesView : webhooksView;
    case 'payouts':
      return route.id ? payoutView : payoutsView;
    case 'disputes':
      return disputesView;
    case 'api-key':
      return apiKeyView;
    case 'team':
      return teamView;
    case 'passkeys':
      return passkeysView;
    case 'branding':
      return brandingView;
    case 'audit':
      return auditView;
    default:
      return ordersView;
  }
}

function signIn(notice: string | null): void {
  session = null;
  actions.forget();
  root.replaceChildren(
    signInScreen(api, config.caughtMailUrl, notice, (started) => {
      session = started;
      void render();
    }),
  );
  root.setAttribute('aria-busy', 'false');
}

async function render(): Promise<void> {
  if (!session) return signIn(null);
  const number = ++rendering;
  const route = routeOf(location.hash);
  // The role is the team's now, not the sign-in's: an Owner may have changed it meanwhile.
  try {
    session = await api.session();
  } catch (error) {
    if (ended(error)) return;
  }
  if (number !== rendering) return;
  const main = h('main', { id: 'content', 'aria-busy': 'true' }, h('p', { class: 'loading' }, 'Loading…'));
  root.replaceChildren(
    frameHeader(session, route.name, {
      switchTo: (environment) =>
        void act(async () => {
          session = await api.switchEnvironment(environment);
          actions.forget();
        }),
      // Signed out whatever the answer: a session the server no longer knows is over too.
      signOut: () =>
        void api.signOut().then(
          () => signIn('You are signed out.'),
          () => signIn('You are signed out.'),
        ),
    }),
    main,
  );
  root.setAttribute('aria-busy', 'false');
  const context: ViewContext = { api, session, actions, go, reload: () => void render() };
  try {
    const content = await viewOf(route)(context, route);
    if (number !== rendering) return;
    main.replaceChildren(...content);
  } catch (error) {
    if (number !== rendering) return;
    if (ended(error)) return;
    main.replaceChildren(h('h1', {}, 'Something went wrong'), errorBox(error));
  }
  main.setAttribute('aria-busy', 'false');
  main.querySelector<HTMLElement>('h1')?.setAttribute('tabindex', '-1');
}

/** A frame action (switching environment, signing out), then the screen again. */
async function act(step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
    await render();
  } catch (error) {
    if (!ended(error)) root.querySelector('main')?.prepend(errorBox(error));
  }
}

/** A 401 means the session is over: back to the sign-in, saying why. */
function ended(error: unknown): boolean {
  if (!(error instanceof DashboardError) || error.status !== 401) return false;
  signIn(error.code === 'SESSION_EXPIRED' ? 'Your session expired: sign in again.' : 'Please sign in.');
  return true;
}

function go(hash: string): void {
  if (location.hash === hash) void render();
  else location.hash = hash;
}

window.addEventListener('hashchange', () => void render());
api.session().then(
  (started) => {
    session = started;
    void render();
  },
  () => signIn(null),
);
