/**
 * READY with CONFIRM: what the customer's confirm does with what is unpaid. A fiat method is
 * listed for buyers; USDC on Base is sent straight to the address; any other token is shown
 * at the provider's price first (about what arrives) and sent through it. Why the last try did
 * not list or send comes first, a refund with what came back: what follows is the next try.
 */
import type { CashoutState, PayoutQuote } from './cashout-api.js';
import { destinationList, refundList } from './cashout-crypto-views.js';
import { deliveredWords } from './cashout-crypto-words.js';
import { cryptoMethodOf, isBridged, unpaidAmount } from './cashout-steps.js';
import { listingErrorWords } from './cashout-words.js';
import { h } from './dom.js';
import { formatAmount } from './format-amount.js';
import { railName } from './rail-names.js';

const CHECK_ADDRESS = 'Check the address: money sent to a wrong address cannot be got back.';

export interface ConfirmScreen {
  state: CashoutState;
  /** The provider's price of a crypto payout through it; null while asked for, or once refused (errorBox says why). */
  quote: PayoutQuote | null;
  pricing: boolean;
  busy: boolean;
  errorBox: HTMLElement | null;
  /** "Change how I am paid", where SAVE_METHOD is offered. */
  changeMethod: HTMLElement | null;
  /** "Connect my Venmo account", on a Venmo, Cash App or PayPal method whose account may be connected. */
  connectAccount: HTMLElement | null;
  confirm(): void;
}

export function confirmScreen(screen: ConfirmScreen): (HTMLElement | null)[] {
  const { state, quote } = screen;
  const method = cryptoMethodOf(state);
  const unpaid = unpaidAmount(state);
  const listingError = state.listingError;
  const trouble = [
    listingError ? h('p', { class: 'error', role: 'alert' }, listingErrorWords(listingError)) : null,
    listingError?.code === 'CASHOUT_PAYOUT_REFUNDED' && state.payoutBridge ? refundList(state.payoutBridge) : null,
  ];
  const button = (label: string, again: string) =>
    h('button', { type: 'button', class: 'primary', disabled: screen.busy, onclick: screen.confirm }, listingError ? again : label);
  if (!method) {
    const fiat = state.method && 'handle' in state.method ? state.method : null;
    const rail = fiat ? railName(fiat.rail) : 'the app you chose';
    return [
      h('h1', {}, 'List your payout'),
      ...trouble,
      h(
        'dl',
        { class: 'receipt', 'aria-label': 'Your listing' },
        h('dt', {}, 'Amount'),
        h('dd', {}, formatAmount(unpaid, 'USDC')),
        h('dt', {}, 'Paid on'),
        h('dd', {}, `${rail}, to ${fiat?.handle ?? 'your account'}`),
        fiat ? h('dt', {}, 'Currency') : null,
        fiat ? h('dd', {}, fiat.currency) : null,
      ),
      h('p', {}, `Your USDC is listed for buyers on ${rail}. Each buyer pays you on ${rail}; you may be paid in parts. You do not need to stay on this page.`),
      screen.errorBox,
      button('List my payout', 'Try listing again'),
      screen.connectAccount,
      screen.changeMethod,
    ];
  }
  if (!isBridged(method))
    return [
      h('h1', {}, 'Send your payout'),
      ...trouble,
      destinationList(method.destination, { usdc: unpaid, delivered: null }),
      h('p', {}, `Your wallet sends the USDC to this address in one go. ${CHECK_ADDRESS}`),
      screen.errorBox,
      button('Send to my address', 'Try sending again'),
      screen.changeMethod,
    ];
  return [
    h('h1', {}, 'Send your payout'),
    ...trouble,
    destinationList(
      method.destination,
      quote ? { usdc: quote.usdcAmount, delivered: { amount: quote.estimatedAmount, exact: false } } : { usdc: unpaid, delivered: null },
    ),
    screen.pricing ? h('p', { class: 'loading', role: 'status' }, 'Asking the conversion provider for a price…') : null,
    quote
      ? h(
          'p',
          {},
          `Your wallet sends the ${formatAmount(quote.usdcAmount, 'USDC')} to the conversion provider, which sends ${deliveredWords(quote.estimatedAmount, quote.destination, false)} to this address. The exact amount is set when you send. If it cannot be delivered, your USDC comes back to your wallet.`,
        )
      : null,
    quote ? h('p', { class: 'hint' }, CHECK_ADDRESS) : null,
    screen.errorBox,
    quote ? button('Send to my address', 'Try sending again') : null,
    screen.changeMethod,
  ];
}
