/**
 * The read-only parts of the payout checkout, built from the state alone: who pays and how
 * much with where it stands, what buyers paid so far, the settlement's breakdown and what
 * happened to the payout.
 */
import type { CashoutState, FiatValue } from './cashout-api.js';
import { h } from './dom.js';
import { formatAmount } from './format-amount.js';
import { isZero, networkName, payoutAmount, tokenSymbol } from './cashout-steps.js';

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function merchantOf(state: CashoutState): string {
  return state.merchant.name ?? 'The sender';
}

/** The payout at a glance, on every screen: from whom, how much, where it stands. */
export function summary(state: CashoutState, status: string): HTMLElement {
  return h(
    'section',
    { class: 'summary', 'aria-label': 'Your payout' },
    h('p', { class: 'summary-from' }, `Payout from ${merchantOf(state)}`),
    h('p', { class: 'summary-amount', 'data-testid': 'payout-amount' }, formatAmount(payoutAmount(state), 'USDC')),
    h('p', { class: 'summary-status' }, h('span', { class: 'visually-hidden' }, 'Status: '), h('span', { 'data-testid': 'payout-status' }, status)),
  );
}

/** How much buyers have paid of the payout, once any has. */
export function paidSoFar(state: CashoutState): HTMLElement | null {
  const { paidAmount, partialFills } = state.payout;
  if (isZero(paidAmount)) return null;
  const total = payoutAmount(state);
  return h(
    'section',
    { class: 'paid', 'aria-labelledby': 'paid-title' },
    h('h2', { id: 'paid-title' }, 'Paid so far'),
    h('p', { 'data-testid': 'paid-so-far' }, `${formatAmount(paidAmount, 'USDC')} of ${formatAmount(total, 'USDC')}`),
    h('progress', { max: total, value: paidAmount, 'aria-labelledby': 'paid-title' }),
    payments(partialFills),
  );
}

function payments(fills: CashoutState['payout']['partialFills']): HTMLElement | null {
  if (fills.length === 0) return null;
  return h(
    'ul',
    { class: 'payments', 'aria-label': 'Payments from buyers' },
    ...fills.map((fill) =>
      h(
        'li',
        {},
        h('span', { class: 'payment-amount' }, fill.fiat ? formatAmount(fill.fiat.amount, fill.fiat.currency) : formatAmount(fill.amount, 'USDC')),
        h('span', { class: 'payment-detail' }, `${fill.fiat ? `${formatAmount(fill.amount, 'USDC')} · ` : ''}${DATE.format(new Date(fill.paidAt))}`),
      ),
    ),
  );
}

/**
 * SETTLED's breakdown: what buyers paid, in their currencies and in USDC; what was sent to the
 * customer's address, and, through the provider, what arrived in which token on which network,
 * with the transaction there and the USDC's on Base; and where any rest went.
 */
export function settlement(state: CashoutState): HTMLElement | null {
  const settled = state.payout.settlement;
  if (!settled) return null;
  const transfer = state.payout.payoutTransfer;
  const sentTo = transfer?.address ?? settled.sentTo;
  const row = (label: string, value: string, testId?: string, mono = false) => [
    h('dt', {}, label),
    h('dd', { ...(testId ? { 'data-testid': testId } : {}), ...(mono ? { class: 'mono' } : {}) }, value),
  ];
  const nonZero = (label: string, amount: string) => (isZero(amount) ? [] : row(label, formatAmount(amount, 'USDC')));
  const bridged = transfer !== null && transfer.provider !== null;
  // What settled it is the delivery on the destination network (settleTx); the USDC left on Base in usdcTxHash.
  const delivery = state.settleTx ?? (transfer ? { chainId: transfer.chainId, txHash: transfer.txHash } : null);
  return h(
    'dl',
    { class: 'receipt', 'aria-label': 'How you were paid' },
    ...(settled.buyerPaidFiat && settled.buyerPaidFiat.length > 0 ? row('Buyers paid you', fiatList(settled.buyerPaidFiat), 'paid-fiat') : []),
    ...(isZero(settled.buyerPaidAmount) ? [] : row('USDC sold to buyers', formatAmount(settled.buyerPaidAmount, 'USDC'), 'paid-usdc')),
    ...(isZero(settled.sentAmount)
      ? []
      : row(bridged ? 'Sent from your wallet' : 'Sent to your address', formatAmount(settled.sentAmount, 'USDC'), 'sent-amount')),
    ...(bridged ? row('You received', receivedWords(transfer), 'received-amount') : []),
    // The transfer's address is written as the confirm screen wrote it (checksummed); the settlement's sentTo is lower case.
    ...(sentTo && !isZero(settled.sentAmount) ? row('Address', sentTo, undefined, true) : []),
    ...(bridged && delivery ? row(`Transaction on ${networkName(delivery.chainId)}`, delivery.txHash, 'delivered-transaction', true) : []),
    ...(transfer ? row('Transaction on Base', transfer.usdcTxHash, 'sent-transaction', true) : []),
    ...nonZero('Left in your wallet', settled.returnedAmount),
    ...nonZero('Too small to list, kept by the escrow', settled.dustAmount),
    ...nonZero('Kept by the provider on a refund', settled.refundFeeAmount),
  );
}

/** "59.94 USDT on Arbitrum": the delivered amount in its token, named by the catalog. */
function receivedWords(transfer: NonNullable<CashoutState['payout']['payoutTransfer']>): string {
  const symbol = tokenSymbol(transfer.chainId, transfer.tokenAddress) ?? 'tokens';
  return `${formatAmount(transfer.amount, symbol)} on ${networkName(transfer.chainId)}`;
}

function fiatList(values: FiatValue[]): string {
  return values.map((value) => formatAmount(value.amount, value.currency)).join(' and ');
}

/** What happened, oldest first, folded away: the screen says where the payout is, this says how it got there. */
export function timeline(state: CashoutState): HTMLElement | null {
  if (state.timeline.length === 0) return null;
  return h(
    'details',
    { class: 'timeline' },
    h('summary', {}, 'What happened so far'),
    h(
      'ol',
      {},
      ...state.timeline.map((entry) =>
        h('li', {}, h('span', {}, entry.text), h('time', { datetime: entry.occurredAt }, DATE.format(new Date(entry.occurredAt)))),
      ),
    ),
  );
}

/** The way back to whoever paid, where they gave one. */
export function back(state: CashoutState): HTMLElement | null {
  const url = state.payout.returnUrl;
  return url ? h('a', { href: url, class: 'primary' }, `Return to ${merchantOf(state)}`) : null;
}
