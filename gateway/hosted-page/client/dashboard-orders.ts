/**
 * The order list with document 1's filters: status, displayStatus (which implies CREATED and
 * drops status), a search of at least 3 characters, and pages of 20. The filters live in the
 * address, so a reload or the back button keeps them.
 */
import type { Order } from './dashboard-api.js';
import { badge, listTable, mono, pager } from './dashboard-ui.js';
import type { View } from './dashboard-view.js';
import { when } from './dashboard-words.js';
import { h } from './dom.js';

const STATUSES = ['', 'CREATED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED'];
const DISPLAY_STATUSES: Array<[string, string]> = [
  ['', 'Any'],
  ['ACTIVE', 'A payment in progress'],
  ['EXPIRED', 'Expired payments, none in progress'],
  ['CREATED', 'No payment started'],
];
const MIN_SEARCH = 3;

export const ordersView: View = async ({ api, go }, { params }) => {
  const filters = {
    status: params.get('status') ?? '',
    displayStatus: params.get('displayStatus') ?? '',
    search: params.get('search') ?? '',
    page: Number(params.get('page') ?? '1') || 1,
  };
  const list = await api.orders({
    status: filters.displayStatus ? undefined : filters.status || undefined,
    displayStatus: filters.displayStatus || undefined,
    search: filters.search.length >= MIN_SEARCH ? filters.search : undefined,
    page: filters.page,
    limit: 20,
  });
  const open = (changes: Partial<typeof filters>) => {
    const next = { ...filters, page: 1, ...changes };
    const query = new URLSearchParams(
      Object.entries(next)
        .filter(([key, value]) => value !== '' && !(key === 'page' && value === 1))
        .map(([key, value]) => [key, String(value)]),
    );
    go(`#/orders?${query.toString()}`);
  };

  const status = h(
    'select',
    { id: 'filter-status', disabled: Boolean(filters.displayStatus) },
    ...STATUSES.map((value) => h('option', { value, selected: value === filters.status }, value || 'Any')),
  );
  const display = h(
    'select',
    { id: 'filter-display' },
    ...DISPLAY_STATUSES.map(([value, label]) => h('option', { value, selected: value === filters.displayStatus }, label)),
  );
  const search = h('input', {
    id: 'filter-search',
    type: 'search',
    value: filters.search,
    placeholder: 'Order id, notes, rail, intent…',
    minlength: String(MIN_SEARCH),
  });
  const form = h(
    'form',
    {
      class: 'filters',
      role: 'search',
      onsubmit: (event: Event) => {
        event.preventDefault();
        open({ status: status.value, displayStatus: display.value, search: search.value.trim() });
      },
    },
    h('div', { class: 'field' }, h('label', { for: 'filter-status' }, 'Status'), status),
    h('div', { class: 'field' }, h('label', { for: 'filter-display' }, 'Payments'), display),
    h('div', { class: 'field grow' }, h('label', { for: 'filter-search' }, `Search (at least ${MIN_SEARCH} characters)`), search),
    h('button', { type: 'submit', class: 'primary' }, 'Show'),
  );
  const ignored =
    filters.search && filters.search.length < MIN_SEARCH
      ? h('p', { class: 'hint' }, `“${filters.search}” is shorter than ${MIN_SEARCH} characters: not searched.`)
      : null;

  return [
    h('h1', {}, 'Orders'),
    form,
    ignored,
    listTable(
      'Orders',
      ['Order', 'Status', 'Amount', 'Payments', 'Created'],
      list.orders.map((order) => [
        h('a', { href: `#/orders/${encodeURIComponent(order.id)}` }, mono(order.id)),
        badge(order.status),
        amountOf(order),
        paymentsOf(order),
        when(order.createdAt),
      ]),
      'No orders match.',
    ),
    pager(list, (page) => open({ page })),
  ].filter((node): node is HTMLElement => node !== null);
};

export function amountOf(order: Order): string {
  return order.requestedUsdcAmount === null ? 'Open amount' : `${order.requestedUsdcAmount} USDC`;
}

function paymentsOf(order: Order): string {
  const rail = order.paymentSelectedRail ? ` (${order.paymentSelectedRail})` : '';
  if (order.hasActivePayment) return `In progress${rail}`;
  if (order.hasExpiredPayment) return `Expired${rail}`;
  return '—';
}
