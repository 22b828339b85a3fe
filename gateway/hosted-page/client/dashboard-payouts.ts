/** The live account's payouts with their status, newest first, each opening its timeline; payouts are live only, so the sandbox says so. */
import { DashboardError } from './dashboard-api.js';
import { badge, listTable, mono, pager } from './dashboard-ui.js';
import type { View } from './dashboard-view.js';
import { when } from './dashboard-words.js';
import { h } from './dom.js';

export const payoutsView: View = async ({ api, session, go }, { params }) => {
  if (session.environment === 'SANDBOX') return [h('h1', {}, 'Payouts'), h('p', { class: 'hint' }, 'Payouts are live only: switch to Live to see them.')];
  try {
    const page = await api.payouts(Number(params.get('page') ?? '1') || 1);
    return [
      h('h1', {}, 'Payouts'),
      listTable(
        'Payouts',
        ['Payout', 'Reference', 'Status', 'Amount', 'Created'],
        page.items.map((payout) => [
          h('a', { href: `#/payouts/${encodeURIComponent(payout.payoutId)}` }, mono(payout.payoutId)),
          payout.merchantReference ?? '—',
          badge(payout.status),
          `${payout.payout.amount} USDC`,
          when(payout.createdAt),
        ]),
        'No payouts yet.',
      ),
      pager(page, (next) => go(`#/payouts?page=${next}`)),
    ].filter((node): node is HTMLElement => node !== null);
  } catch (error) {
    if (error instanceof DashboardError && error.code === 'PAYOUT_SANDBOX_UNSUPPORTED')
      return [h('h1', {}, 'Payouts'), h('p', { class: 'hint' }, 'Payouts are live only.')];
    throw error;
  }
};
