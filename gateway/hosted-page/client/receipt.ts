/**
 * The receipt on the paid screen: what was paid, to whom, with what, a reference the shop
 * knows the order by, and the transaction on chain that delivered it, each copyable.
 */
import type { CheckoutPayment, HostedOrder } from './api.js';
import { copyButton } from './copy-button.js';
import { h } from './dom.js';
import { formatAmount } from './format-amount.js';
import { railName } from './rail-names.js';

export function receipt(hosted: HostedOrder, shop: string): HTMLElement {
  const { order, currentPayment: payment } = hosted;
  const settled = payment?.status === 'SETTLED' ? payment : null;
  const amount = settled
    ? { value: settled.paymentAmount, currency: settled.currency }
    : order.requestedFiat
      ? { value: order.requestedFiat.amount, currency: order.requestedFiat.currency }
      : { value: order.requestedUsdcAmount ?? '', currency: 'USDC' };
  return h(
    'dl',
    { class: 'receipt', 'aria-label': 'Receipt' },
    h('dt', {}, 'Paid to'),
    h('dd', {}, shop),
    h('dt', {}, 'Amount'),
    row(formatAmount(amount.value, amount.currency), 'amount', amount.value, 'receipt-amount'),
    settled ? h('dt', {}, 'Paid with') : null,
    settled ? h('dd', {}, railName(settled.rail)) : null,
    settled?.completedAt ? h('dt', {}, 'Date') : null,
    settled?.completedAt ? h('dd', {}, new Date(settled.completedAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })) : null,
    h('dt', {}, 'Reference'),
    row(order.id, 'reference', order.id, 'receipt-reference', 'mono'),
    ...transaction(settled),
  );
}

/** A sandbox payment is settled without a chain: its transaction is named as the simulation it is. */
function transaction(payment: CheckoutPayment | null): HTMLElement[] {
  const hash = payment?.fulfillTransaction;
  if (!hash) return [];
  const onChain = hash.startsWith('0x');
  return [
    h('dt', {}, onChain ? 'Transaction on chain' : 'Transaction (simulated, sandbox)'),
    row(hash, 'transaction hash', hash, 'receipt-transaction', 'mono'),
  ];
}

function row(text: string, what: string, value: string, testId: string, kind = ''): HTMLElement {
  return h('dd', { class: 'copyable' }, h('span', { class: `value ${kind}`.trim(), 'data-testid': testId }, text), copyButton(what, value));
}
