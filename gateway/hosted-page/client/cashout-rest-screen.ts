/**
 * Sending a partly paid listing's rest to a crypto address: the network, token and address
 * (the method form's crypto fields), then what it delivers at the provider's price now, then
 * the send, which takes the listing back and sends the rest in one go. The price binds
 * nothing: the send takes its own, so the screen says "about".
 */
import type { DestinationNetwork } from '../../../machines/payout/destination-catalog.js';
import type { CashoutState, DestinationBody, PayoutQuote } from './cashout-api.js';
import { destinationList } from './cashout-crypto-views.js';
import { deliveredWords, destinationOfBody } from './cashout-crypto-words.js';
import type { MethodDraft } from './cashout-method-draft.js';
import { cryptoFields } from './cashout-method-screen.js';
import { isBridged, networkName, unpaidAmount } from './cashout-steps.js';
import { h } from './dom.js';
import { formatAmount } from './format-amount.js';

export interface RestFormScreen {
  state: CashoutState;
  networks: readonly DestinationNetwork[];
  draft: MethodDraft;
  busy: boolean;
  invalid: string | null;
  errorBox: HTMLElement | null;
  onChoose(draft: MethodDraft): void;
  price(): void;
  cancel(): void;
}

/** Where the rest goes: network, token, address; "Continue" prices it. */
export function restFormScreen(screen: RestFormScreen): (HTMLElement | null)[] {
  const { state } = screen;
  return [
    h('h1', {}, 'Send the rest to your address'),
    h(
      'p',
      {},
      `Buyers paid ${formatAmount(state.payout.paidAmount, 'USDC')} of your payout. The other ${formatAmount(unpaidAmount(state), 'USDC')} comes off the listing and goes to your own address, in the token you choose.`,
    ),
    h(
      'form',
      { class: 'stack', novalidate: true, onsubmit: (event: Event) => (event.preventDefault(), screen.price()) },
      ...cryptoFields(screen, screen.networks),
      screen.errorBox,
      h('button', { type: 'submit', class: 'primary', disabled: screen.busy }, 'Continue'),
    ),
    h('button', { type: 'button', class: 'link', disabled: screen.busy, onclick: screen.cancel }, 'Keep my listing'),
  ];
}

export interface RestReviewScreen {
  state: CashoutState;
  body: DestinationBody;
  /** The price now; null while it is asked for, or when asking failed (errorBox says why). */
  quote: PayoutQuote | null;
  pricing: boolean;
  busy: boolean;
  errorBox: HTMLElement | null;
  send(): void;
  change(): void;
}

/** The rest priced: what leaves the wallet, what arrives where; sending it. */
export function restReviewScreen(screen: RestReviewScreen): (HTMLElement | null)[] {
  const { quote, state } = screen;
  const bridged = isBridged({ rail: screen.body.rail, destination: screen.body });
  const unpaid = formatAmount(quote?.usdcAmount ?? unpaidAmount(state), 'USDC');
  return [
    h('h1', {}, 'Send the rest'),
    quote
      ? destinationList(quote.destination, { usdc: quote.usdcAmount, delivered: { amount: quote.estimatedAmount, exact: !bridged } })
      : destinationOf(screen.body),
    screen.pricing ? h('p', { class: 'loading', role: 'status' }, 'Asking for the price now…') : null,
    quote
      ? h(
          'p',
          {},
          bridged
            ? `Your wallet takes the ${unpaid} off the listing and sends it to the conversion provider, which sends ${deliveredWords(quote.estimatedAmount, quote.destination, false)} to this address. The exact amount is set when you send. If it cannot be delivered, your USDC comes back to your wallet.`
            : `Your wallet takes the ${unpaid} off the listing and sends it to this address on ${networkName(quote.destination.chainId)} in one go.`,
        )
      : null,
    quote ? h('p', { class: 'hint' }, 'Check the address: money sent to a wrong address cannot be got back.') : null,
    screen.errorBox,
    quote ? h('button', { type: 'button', class: 'primary', disabled: screen.busy, onclick: screen.send }, 'Send to my address') : null,
    h('button', { type: 'button', class: 'link', disabled: screen.busy, onclick: screen.change }, 'Change the address'),
  ];
}

function destinationOf(body: DestinationBody): HTMLElement | null {
  const destination = destinationOfBody(body);
  return destination ? destinationList(destination, { usdc: null, delivered: null }) : null;
}
