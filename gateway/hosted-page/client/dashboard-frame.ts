/**
 * The signed-in frame: the business and the environment (LIVE or SANDBOX, switched here), the
 * member and their role, sign out, and the sections a member can open. The audit log is listed
 * for Owners only.
 */
import type { DashboardSession, Environment } from './dashboard-api.js';
import { ROLE_NAMES } from './dashboard-words.js';
import { h } from './dom.js';

export interface FrameActions {
  switchTo(environment: Environment): void;
  signOut(): void;
}

const SECTIONS: Array<[string, string, boolean]> = [
  ['orders', 'Orders', false],
  ['webhooks', 'Webhooks', false],
  ['payouts', 'Payouts', false],
  ['disputes', 'Disputes', false],
  ['api-key', 'API key', false],
  ['team', 'Team', false],
  ['passkeys', 'Passkeys', false],
  ['branding', 'Checkout look', false],
  ['audit', 'Audit log', true],
];

export function frameHeader(session: DashboardSession, current: string, actions: FrameActions): HTMLElement {
  const other: Environment = session.environment === 'LIVE' ? 'SANDBOX' : 'LIVE';
  return h(
    'header',
    { class: `frame ${session.environment.toLowerCase()}` },
    h(
      'div',
      { class: 'bar' },
      h(
        'p',
        { class: 'business' },
        session.merchantName,
        ' ',
        h('span', { class: `env ${session.environment.toLowerCase()}` }, session.environment === 'LIVE' ? 'Live' : 'Sandbox'),
      ),
      h(
        'div',
        { class: 'who' },
        h('span', { class: 'member' }, session.email, ' · ', h('strong', {}, ROLE_NAMES[session.role])),
        h('button', { type: 'button', class: 'secondary', onclick: () => actions.switchTo(other) }, other === 'LIVE' ? 'Switch to Live' : 'Switch to Sandbox'),
        h('button', { type: 'button', class: 'secondary', onclick: () => actions.signOut() }, 'Sign out'),
      ),
    ),
    h(
      'nav',
      { 'aria-label': 'Dashboard' },
      h(
        'ul',
        {},
        ...SECTIONS.filter(([, , ownerOnly]) => !ownerOnly || session.role === 'OWNER').map(([name, label]) =>
          h('li', {}, h('a', { href: `#/${name}`, 'aria-current': name === current ? 'page' : undefined }, label)),
        ),
      ),
    ),
  );
}
