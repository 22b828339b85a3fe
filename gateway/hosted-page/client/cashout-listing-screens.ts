/**
 * A listing and its ways out (docs/payout-checkout.md, "Listing exits"): while listed, a
 * signed-in customer may take it back to choose again and, once a buyer paid part, list what is
 * left again (so buyers are offered no more than that) or have the rest sent to a crypto
 * address instead; a way out on its way, and a crypto payout with the
 * provider (of the whole payout or of a listing's rest), each have a screen that only follows
 * it. What is offered is what the state's actions offer.
 */
import type { CashoutState } from './cashout-api.js';
import { bridgeProgress, destinationList } from './cashout-crypto-views.js';
import { bridgeLive, cryptoMethodOf, isZero, networkName, unpaidAmount } from './cashout-steps.js';
import { paidSoFar, timeline } from './cashout-views.js';
import { h } from './dom.js';
import { formatAmount } from './format-amount.js';
import { railName } from './rail-names.js';

const COME_BACK = 'This page updates by itself. You can also close it and come back with the same link.';

export interface ListingScreen {
  state: CashoutState;
  signedIn: boolean;
  busy: boolean;
  errorBox: HTMLElement | null;
  /** Why the latest send of the rest did not go through, in words; null when none. */
  listingError: string | null;
  signIn(): void;
  sendRest(): void;
  withdraw(): void;
  relist(): void;
}

/** LISTING: waiting for buyers, what they paid so far, and the ways out the state offers. */
export function listingScreen(screen: ListingScreen): (HTMLElement | null)[] {
  const { state } = screen;
  const rail = listedRail(state);
  return [
    h('h1', {}, isZero(state.payout.paidAmount) ? 'Waiting for a buyer' : 'Waiting for the next buyer'),
    h(
      'p',
      {},
      rail
        ? `Your payout is listed on ${rail}. A buyer who takes it pays you on ${rail}, to ${handleOf(state)}. You may be paid in parts, by several buyers.`
        : 'Your payout is listed for buyers. You may be paid in parts, by several buyers.',
    ),
    h('p', { class: 'hint' }, COME_BACK),
    screen.listingError ? h('p', { class: 'error', role: 'alert' }, screen.listingError) : null,
    screen.errorBox,
    paidSoFar(state),
    relisting(screen),
    exits(screen),
    timeline(state),
  ];
}

/** After a partial payment, while buyers are still offered more than is left: listing the rest again, signed in. */
function relisting(screen: ListingScreen): HTMLElement | null {
  const { state, busy } = screen;
  if (!screen.signedIn || !state.actions.includes('RELIST')) return null;
  const unpaid = formatAmount(unpaidAmount(state), 'USDC');
  return h(
    'section',
    { class: 'exits', 'aria-labelledby': 'relist-title' },
    h('h2', { id: 'relist-title' }, 'Update your listing'),
    h(
      'p',
      { id: 'relist-hint', class: 'hint' },
      `Your listing still offers buyers more than the ${unpaid} left. List what is left again so the next buyer is offered no more than that.`,
    ),
    h('button', { type: 'button', class: 'primary', disabled: busy, 'aria-describedby': 'relist-hint', onclick: screen.relist }, 'List what is left again'),
  );
}

/** The listing's ways out, signed in; signed out, the way to sign in for them. */
function exits(screen: ListingScreen): HTMLElement | null {
  const { state, busy } = screen;
  const sendable = state.actions.includes('SEND_TO_ADDRESS');
  const withdrawable = state.actions.includes('WITHDRAW');
  if (!sendable && !withdrawable) return null;
  const unpaid = formatAmount(unpaidAmount(state), 'USDC');
  const content = screen.signedIn
    ? [
        sendable
          ? h('p', { id: 'send-rest-hint', class: 'hint' }, `Rather not wait for buyers? Have the unpaid ${unpaid} sent to your own crypto address.`)
          : null,
        sendable
          ? h(
              'button',
              { type: 'button', class: 'primary', disabled: busy, 'aria-describedby': 'send-rest-hint', onclick: screen.sendRest },
              'Send the rest to a crypto address',
            )
          : null,
        withdrawable
          ? h(
              'p',
              { id: 'withdraw-hint', class: 'hint' },
              `Take the unpaid ${unpaid} off the listing to choose another way to be paid. Buyers can no longer take it.`,
            )
          : null,
        withdrawable
          ? h('button', { type: 'button', disabled: busy, 'aria-describedby': 'withdraw-hint', onclick: screen.withdraw }, 'Take my listing back')
          : null,
      ]
    : [
        h(
          'p',
          { class: 'hint' },
          state.actions.includes('RELIST')
            ? 'To list what is left again, take your listing back or have the rest sent to your own address, sign in first.'
            : 'To take your listing back or have the rest sent to your own address, sign in first.',
        ),
        h('button', { type: 'button', disabled: busy, onclick: screen.signIn }, 'Sign in to change it'),
      ];
  return h('section', { class: 'exits', 'aria-labelledby': 'exits-title' }, h('h2', { id: 'exits-title' }, 'Be paid another way'), ...content);
}

/** LISTING with a way out on its way: the listing taken back, or its rest sent to an address in USDC on Base. */
export function exitPendingScreen(state: CashoutState, errorBox: HTMLElement | null): (HTMLElement | null)[] {
  const unpaid = formatAmount(unpaidAmount(state), 'USDC');
  const method = cryptoMethodOf(state);
  if (!method)
    return [
      h('h1', {}, 'Taking your listing back'),
      h(
        'p',
        { class: 'loading', role: 'status' },
        `Your wallet is taking the unpaid ${unpaid} back from the listing, so buyers can no longer take it. This takes a few seconds; then you choose how to be paid.`,
      ),
      errorBox,
      paidSoFar(state),
    ];
  return [
    h('h1', {}, 'Sending the rest of your payout'),
    h(
      'p',
      { class: 'loading', role: 'status' },
      `Your wallet is taking the unpaid ${unpaid} off the listing and sending it to your address. This takes a few seconds.`,
    ),
    destinationList(method.destination, { usdc: unpaidAmount(state), delivered: null }),
    errorBox,
    paidSoFar(state),
  ];
}

/** LISTING with what is left being listed again (this tab asked): the listing's range set to it. */
export function relistPendingScreen(state: CashoutState, errorBox: HTMLElement | null): (HTMLElement | null)[] {
  const unpaid = formatAmount(unpaidAmount(state), 'USDC');
  return [
    h('h1', {}, 'Listing what is left again'),
    h(
      'p',
      { class: 'loading', role: 'status' },
      `Your wallet is updating your listing to the unpaid ${unpaid}, so buyers are offered no more than that. This takes a few seconds; buyers can still take it meanwhile.`,
    ),
    errorBox,
    paidSoFar(state),
  ];
}

/** A crypto payout with the provider (QUOTED, then BRIDGING): where it goes, what arrives, how far it has got. */
export function bridgingScreen(state: CashoutState, errorBox: HTMLElement | null): (HTMLElement | null)[] {
  const bridge = bridgeLive(state)!;
  const { symbol, chainId } = bridge.destination;
  const usdc = formatAmount(bridge.usdcAmount, 'USDC');
  const arriving = `about ${formatAmount(bridge.estimatedAmount, symbol)} on ${networkName(chainId)}`;
  return [
    h('h1', {}, `Your ${symbol} is on its way`),
    h(
      'p',
      { class: 'loading', role: 'status', 'data-testid': 'bridge-status' },
      bridge.status === 'QUOTED'
        ? `Your wallet is sending ${usdc} to the conversion provider, which then sends you ${arriving}.`
        : `The conversion provider has your ${usdc} and is sending you ${arriving}. This can take a few minutes.`,
    ),
    bridgeProgress(bridge),
    destinationList(bridge.destination, { usdc: bridge.usdcAmount, delivered: { amount: bridge.estimatedAmount, exact: false } }),
    h('p', { class: 'hint' }, `${COME_BACK} If the provider cannot deliver, your USDC comes back to your wallet and you can try again.`),
    errorBox,
    paidSoFar(state),
    timeline(state),
  ];
}

/** The app a listing is on; null when the method is no longer the listing's (a send of the rest that did not go through left its address). */
function listedRail(state: CashoutState): string | null {
  return state.method && 'handle' in state.method ? railName(state.method.rail) : null;
}

function handleOf(state: CashoutState): string {
  return state.method && 'handle' in state.method ? state.method.handle : 'your account';
}
