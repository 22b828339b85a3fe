/**
 * Connecting the customer's Venmo, Cash App or PayPal account (docs/payout-checkout.md,
 * "Connecting an account"): they sign in to the account they gave, and the page proves it is
 * theirs. Offered while the method waits for its account (beside continuing without it), when
 * they ask to after skipping, and when confirming said the connection lapsed. On a development
 * node the app's sign-in is the platform simulator's: a field says which account to sign in to,
 * the one they gave unless they change it.
 */
import { h } from './dom.js';

export interface ConnectScreen {
  rail: string;
  /** The account the customer gave. */
  handle: string;
  /** `pending`: the method waits for its account; `asked`: connecting after skipping; `lapsed`: the last connection lapsed. */
  why: 'pending' | 'asked' | 'lapsed';
  /** The simulator's sign-in, on a node that can connect from the page: the account to sign in to, as typed. */
  signIn: { account: string; label: string; onAccount(account: string): void } | null;
  busy: boolean;
  /** The field a refusal is about. */
  invalid: string | null;
  errorBox: HTMLElement | null;
  connect(): void;
  /** "Continue without connecting", while the method waits for its account. */
  skip: (() => void) | null;
  /** Back to listing, unconnected, when the customer asked to connect after skipping. */
  back: (() => void) | null;
  changeMethod: HTMLElement | null;
}

export function connectScreen(screen: ConnectScreen): (HTMLElement | null)[] {
  const { rail, signIn } = screen;
  const invalid = screen.invalid === 'account';
  const connectButton = h(
    'button',
    { type: 'button', class: 'primary', disabled: screen.busy, onclick: screen.connect },
    screen.why === 'lapsed' ? `Connect my ${rail} account again` : `Connect my ${rail} account`,
  );
  return [
    h('h1', {}, screen.why === 'lapsed' ? `Connect your ${rail} account again` : `Connect your ${rail} account`),
    h('p', {}, leadOf(screen)),
    signIn
      ? h(
          'section',
          { class: 'simulator stack', 'aria-labelledby': 'simulator-title' },
          h('h2', { id: 'simulator-title' }, `Local ${rail} simulator`),
          h('p', { id: 'account-hint' }, `This node signs in to ${rail} through a stand-in for the app. Sign in to the account you gave:`),
          h(
            'div',
            { class: 'stack field' },
            h('label', { for: 'field-account' }, signIn.label),
            h('input', {
              id: 'field-account',
              name: 'account',
              value: signIn.account,
              autocomplete: 'off',
              spellcheck: 'false',
              autocapitalize: 'off',
              'aria-describedby': ['account-hint', invalid && screen.errorBox ? 'step-error' : ''].filter(Boolean).join(' '),
              'aria-invalid': invalid ? 'true' : undefined,
              oninput: (event: Event) => signIn.onAccount((event.target as HTMLInputElement).value),
            }),
          ),
        )
      : h('p', { class: 'hint' }, `Connecting your ${rail} account is not available on this node.`),
    screen.errorBox,
    signIn ? connectButton : null,
    screen.skip
      ? h('button', { type: 'button', class: signIn ? undefined : 'primary', disabled: screen.busy, onclick: screen.skip }, 'Continue without connecting')
      : null,
    screen.back ? h('button', { type: 'button', class: 'link', disabled: screen.busy, onclick: screen.back }, 'Not now') : null,
    screen.changeMethod,
  ];
}

function leadOf({ rail, handle, why }: ConnectScreen): string {
  const check = `Buyers will pay you on ${rail}, to ${handle}.`;
  switch (why) {
    case 'pending':
      return `${check} Connecting your account proves it is yours, so no one is paid in your place; you may also continue without connecting it.`;
    case 'asked':
      return `${check} Connecting your account proves it is yours, so no one is paid in your place.`;
    case 'lapsed':
      return `${check} Sign in to it again to renew its connection.`;
  }
}
