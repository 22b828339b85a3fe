/**
 * One order with every attempt, newest first (the session-only read), its cancel for an Owner
 * or a Manager behind a confirmation, its resize (dashboard-resize.ts), and each attempt's actions
 * (dashboard-attempt.ts). When an action started here ends, the order is read again, so its
 * attempts show what it did.
 */
import { attemptCard } from './dashboard-attempt.js';
import { amountOf } from './dashboard-orders.js';
import { resizeForm } from './dashboard-resize.js';
import { badge, confirmButton, mono } from './dashboard-ui.js';
import type { View } from './dashboard-view.js';
import { refusalWords, when } from './dashboard-words.js';
import { announce, h } from './dom.js';

const CANCELLABLE = new Set(['CREATED', 'PARTIALLY_FULFILLED']);

export const orderView: View = async (context, { id }) => {
  const { api, session, actions, reload } = context;
  const { order, payments } = await api.order(id ?? '');
  const heading = h('h1', {}, 'Order ', mono(order.id));
  let shown = false;
  actions.listen((paymentId, final) => {
    if (heading.isConnected) shown = true;
    else if (shown) return false;
    if (final && payments.some((payment) => payment.id === paymentId)) reload();
    return !final || !payments.some((payment) => payment.id === paymentId);
  });

  const mayCancel = session.role !== 'CASHIER';
  const cancel = CANCELLABLE.has(order.status)
    ? mayCancel
      ? confirmButton({
          label: 'Cancel order',
          question: 'Cancel this order? Its open payment attempt is cancelled too, and the customer can no longer pay it.',
          confirm: 'Yes, cancel the order',
          keep: 'Keep the order',
          words: (failure) => refusalWords(failure.code, failure.message),
          act: async () => {
            await api.cancelOrder(order.id);
            announce('Order cancelled');
            reload();
          },
        })
      : h('p', { class: 'hint' }, 'Only an Owner or a Manager may cancel an order.')
    : null;

  return [
    h('p', {}, h('a', { href: '#/orders' }, '← All orders')),
    heading,
    h(
      'section',
      { class: 'panel', 'aria-label': 'The order' },
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Status'),
        h('dd', {}, badge(order.status)),
        h('dt', {}, 'Amount'),
        h('dd', {}, amountOf(order)),
        h('dt', {}, 'Still owed'),
        h('dd', {}, order.remainingUsdcAmount === null ? '—' : `${order.remainingUsdcAmount} USDC`),
        h('dt', {}, 'Created'),
        h('dd', {}, when(order.createdAt)),
        ...(order.cancelledAt ? [h('dt', {}, 'Cancelled'), h('dd', {}, when(order.cancelledAt))] : []),
        ...(order.completedAt ? [h('dt', {}, 'Paid'), h('dd', {}, when(order.completedAt))] : []),
      ),
      cancel,
      resizeForm(api, order, session.role, reload),
    ),
    h('h2', {}, `Payment attempts (${payments.length})`),
    ...(payments.length
      ? payments.map((payment) => attemptCard({ order, payment, payments, session, actions }))
      : [h('p', { class: 'empty' }, 'The customer has not picked a payment method yet.')]),
  ];
};
