/**
 * The read-only parts of a crypto payout: where it goes, what the provider says it delivers
 * for the USDC (a price that binds nothing), how far a bridge has got, and what came back when
 * the provider could not deliver. Built from the state and a quote alone.
 */
import { formatUsdcCents, parseUsdc } from '../../../machines/money.js';
import type { CryptoDestinationView, PayoutBridgeView } from './cashout-api.js';
import { deliveredWords } from './cashout-crypto-words.js';
import { networkName } from './cashout-steps.js';
import { h } from './dom.js';
import { formatAmount } from './format-amount.js';

export interface DestinationRows {
  /** The USDC leaving the wallet. */
  usdc: string | null;
  /** What arrives: a quote's or a bridge's estimate ("about …"), or null while it is priced. */
  delivered: { amount: string; exact: boolean } | null;
}

/** Where a crypto payout goes: what leaves the wallet, what arrives, on which network, in which token, at which address. */
export function destinationList(destination: CryptoDestinationView, rows: DestinationRows): HTMLElement {
  const { usdc, delivered } = rows;
  return h(
    'dl',
    { class: 'receipt', 'aria-label': 'Where your payout goes' },
    // Beside what arrives, the USDC is what leaves the wallet; alone, it is the amount sent.
    usdc ? h('dt', {}, delivered ? 'From your wallet' : 'Amount') : null,
    usdc ? h('dd', { 'data-testid': 'usdc-amount' }, formatAmount(usdc, 'USDC')) : null,
    delivered ? h('dt', {}, 'You get') : null,
    delivered ? h('dd', { 'data-testid': 'you-get' }, deliveredWords(delivered.amount, destination, delivered.exact)) : null,
    h('dt', {}, 'Network'),
    h('dd', {}, networkName(destination.chainId)),
    h('dt', {}, 'Token'),
    h('dd', {}, destination.symbol),
    h('dt', {}, 'To'),
    h('dd', { class: 'mono', 'data-testid': 'destination-address' }, destination.address),
  );
}

/**
 * How far a bridge has got, as three steps: the wallet's send on Base (QUOTED), the provider
 * converting and sending on the destination network (BRIDGING), the token arriving (the
 * payout then settles, and this page shows that instead).
 */
export function bridgeProgress(bridge: PayoutBridgeView): HTMLElement {
  const { symbol, chainId } = bridge.destination;
  const steps = [
    `Your wallet sends ${formatAmount(bridge.usdcAmount, 'USDC')} on Base`,
    `The provider converts it to ${symbol} and sends it on ${networkName(chainId)}`,
    `The ${symbol} arrives at your address`,
  ];
  const current = bridge.status === 'QUOTED' ? 0 : 1;
  return h(
    'ol',
    { class: 'progress-steps', 'aria-label': 'Progress', 'data-testid': 'bridge-progress' },
    ...steps.map((text, index) =>
      h(
        'li',
        index < current ? { 'data-state': 'done' } : index === current ? { 'aria-current': 'step' } : {},
        h('span', { class: 'visually-hidden' }, index < current ? 'Done: ' : index === current ? 'Now: ' : 'Next: '),
        text,
      ),
    ),
  );
}

/** A refunded bridge: what came back to the wallet, what the provider kept, and the refund's transaction. */
export function refundList(bridge: PayoutBridgeView): HTMLElement | null {
  if (bridge.status !== 'REFUNDED' || bridge.refundedAmount === null) return null;
  const kept = parseUsdc(bridge.usdcAmount) - parseUsdc(bridge.refundedAmount);
  return h(
    'dl',
    { class: 'receipt', 'aria-label': 'What came back' },
    h('dt', {}, 'Back in your wallet'),
    h('dd', { 'data-testid': 'refunded-amount' }, `${formatAmount(bridge.refundedAmount, 'USDC')} of ${formatAmount(bridge.usdcAmount, 'USDC')}`),
    kept > 0n ? h('dt', {}, 'Kept by the provider') : null,
    kept > 0n ? h('dd', {}, formatAmount(formatUsdcCents(kept), 'USDC')) : null,
    bridge.refundTxHash ? h('dt', {}, 'Transaction on Base') : null,
    bridge.refundTxHash ? h('dd', { class: 'mono' }, bridge.refundTxHash) : null,
  );
}
