/**
 * The account's disputes (docs/disputes.md), newest first, filtered by status: what each
 * one asks of the merchant (send amountUsdc to the seller on Base before it is due) and
 * where it stands. Each OPEN one has its payment form below the list (dashboard-dispute-payment.ts).
 */
import type { DisputeRow } from './dashboard-api.js';
import { disputePayment, usdcOf } from './dashboard-dispute-payment.js';
import { badge, listTable, mono, pager } from './dashboard-ui.js';
import type { View } from './dashboard-view.js';
import { when } from './dashboard-words.js';
import { h } from './dom.js';

const STATUSES = ['OPEN', 'PAID', 'ESCALATED'] as const;

function row(dispute: DisputeRow) {
  return [
    mono(dispute.disputeId),
    mono(dispute.paymentId),
    badge(dispute.status),
    `${usdcOf(dispute.amountUsdc)} USDC`,
    `${dispute.caseAmount} ${dispute.caseCurrency}`,
    mono(dispute.sellerAddress),
    dispute.status === 'OPEN' ? when(dispute.dueAt) : dispute.paidTxHash ? mono(dispute.paidTxHash) : '—',
  ];
}

export const disputesView: View = async ({ api, go, reload, session }, { params }) => {
  const status = STATUSES.find((candidate) => candidate === params.get('status')) ?? null;
  const page = await api.disputes({ page: Number(params.get('page') ?? '1') || 1, ...(status ? { status } : {}) });
  const filter = h(
    'nav',
    { class: 'filters', 'aria-label': 'Dispute status' },
    ...[null, ...STATUSES].map((choice) =>
      h(
        'button',
        { type: 'button', class: choice === status ? '' : 'secondary', onclick: () => go(choice ? `#/disputes?status=${choice}` : '#/disputes') },
        choice ?? 'All',
      ),
    ),
  );
  return [
    h('h1', {}, 'Disputes'),
    h(
      'p',
      { class: 'hint' },
      'An open dispute is settled by sending its amount in USDC to the seller on Base before it is due, then recording the transaction (POST /api/v1/merchants/me/disputes/{id}/payment); unpaid, it escalates.',
    ),
    filter,
    listTable('Disputes', ['Case', 'Payment', 'Status', 'Amount', 'Case amount', 'Seller', 'Due or paid by'], page.disputes.map(row), 'No disputes.'),
    ...page.disputes
      .filter((dispute) => dispute.status === 'OPEN')
      .map((dispute) => disputePayment(dispute, session.role, (txHash) => api.payDispute(dispute.id, txHash), reload)),
    pager(page, (next) => go(`#/disputes?${new URLSearchParams({ page: String(next), ...(status ? { status } : {}) })}`)),
  ].filter((node): node is HTMLElement => node !== null);
};
