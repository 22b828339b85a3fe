/**
 * One payout (docs/payouts.md): where it and its funding stand, what arrived, its timeline oldest
 * first, and its funding issues (an overpayment, late funds, a route refund: money that reached
 * the payout and was not counted toward it, so the merchant knows to settle it with the customer).
 */
import type { PayoutTimeline } from './dashboard-api.js';
import { badge, listTable, mono } from './dashboard-ui.js';
import type { View } from './dashboard-view.js';
import { when } from './dashboard-words.js';
import { h } from './dom.js';

const ISSUE_WORDS: Record<PayoutTimeline['fundingIssues'][number]['kind'], string> = {
  OVERPAYMENT: 'Overpayment: more arrived than the payout needed',
  LATE_FUNDS: 'Late funds: arrived after funding closed',
  ROUTE_REFUND: 'Route refund: the funding route sent it back',
};

export const payoutView: View = async ({ api }, { id }) => {
  const payoutId = id ?? '';
  const [payout, history] = await Promise.all([api.payout(payoutId), api.payoutTimeline(payoutId)]);
  return [
    h('p', {}, h('a', { href: '#/payouts' }, '← Payouts')),
    h('h1', {}, 'Payout ', mono(payout.payoutId)),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Status'),
      h('dd', {}, badge(payout.status), ' funding ', badge(payout.fundingStatus)),
      h('dt', {}, 'Reference'),
      h('dd', {}, payout.merchantReference ?? '—'),
      h('dt', {}, 'Amount'),
      h('dd', {}, `${payout.payout.amount} USDC`),
      h('dt', {}, 'Received'),
      h('dd', {}, `${payout.funding.receivedAmount} USDC`),
      h('dt', {}, 'Paid out'),
      h('dd', {}, `${payout.paidAmount} USDC`),
      h('dt', {}, 'Created'),
      h('dd', {}, when(payout.createdAt)),
    ),
    h('h2', {}, 'Funding issues'),
    history.fundingIssues.length
      ? listTable(
          'Funding issues',
          ['When', 'What', 'Amount', 'Transaction'],
          history.fundingIssues.map((issue) => [
            when(issue.occurredAt),
            ISSUE_WORDS[issue.kind],
            `${issue.amount} ${issue.unit}`,
            issue.txHash ? mono(issue.txHash) : '—',
          ]),
          '',
        )
      : h('p', { class: 'hint' }, 'None: everything that arrived counted toward the payout.'),
    h('h2', {}, 'Timeline'),
    listTable(
      'Timeline',
      ['When', 'What', 'Transaction'],
      history.timeline.map((entry) => [when(entry.occurredAt), entry.text, entry.txHash ? mono(entry.txHash) : '—']),
      'Nothing yet.',
    ),
  ];
};
