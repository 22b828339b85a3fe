/**
 * Signing in to a payout's checkout: a code e-mailed to the payout's address, then typed
 * (or filled in by the phone from the e-mail: autocomplete one-time-code). A development
 * node catches its mail instead of sending it, and the page links to where it shows it.
 */
import { h } from './dom.js';
import type { KeptUntil } from './cashout-session.js';

export interface SignInScreen {
  /** The payout's e-mail, masked. */
  sentTo: string;
  codeSent: KeptUntil | null;
  code: string;
  busy: boolean;
  invalid: boolean;
  errorBox: HTMLElement | null;
  /** Where a development node shows the mail it caught; null elsewhere. */
  caughtMailUrl: string | null;
  /** Offered when signing in is a choice (to change a listing): back to where the customer was. */
  back: (() => void) | null;
  onCode(code: string): void;
  sendCode(): void;
  signIn(): void;
}

const CODE = /^\d{6}$/;

/** The code as typed, spaces and dashes dropped ("042 917"), or null when it is not six digits. */
export function readCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, '');
  return CODE.test(code) ? code : null;
}

export function signInScreen(screen: SignInScreen): (HTMLElement | null)[] {
  const heading = h('h1', {}, 'Sign in to get paid');
  const devHint = screen.caughtMailUrl
    ? h(
        'p',
        { class: 'dev-hint' },
        'Development node: codes are caught, not e-mailed. ',
        h('a', { href: screen.caughtMailUrl, target: '_blank', rel: 'noopener noreferrer' }, 'Read your code in the caught mail'),
        '.',
      )
    : null;
  if (!screen.codeSent) {
    return [
      heading,
      h('p', {}, `To keep your money safe, we first check it is you: we e-mail a 6-digit code to ${screen.sentTo}, the address this payout was sent to.`),
      screen.errorBox,
      h('button', { type: 'button', class: 'primary', disabled: screen.busy, onclick: () => screen.sendCode() }, 'Send me a code'),
      backButton(screen),
      devHint,
    ];
  }
  const described = ['code-hint', screen.errorBox ? 'step-error' : ''].filter(Boolean).join(' ');
  const input = h('input', {
    id: 'field-code',
    name: 'code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    'data-autofocus': true,
    maxlength: '7',
    required: true,
    spellcheck: 'false',
    'aria-describedby': described,
    'aria-invalid': screen.invalid ? 'true' : undefined,
    value: screen.code,
    oninput: (event: Event) => screen.onCode((event.target as HTMLInputElement).value),
  });
  return [
    heading,
    h('p', { role: 'status' }, `We e-mailed a 6-digit code to ${screen.codeSent.value}. It works for 10 minutes.`),
    h(
      'form',
      { class: 'stack', novalidate: true, onsubmit: (event: Event) => (event.preventDefault(), screen.signIn()) },
      h('label', { for: 'field-code' }, '6-digit code'),
      input,
      h('p', { id: 'code-hint', class: 'hint' }, 'Not there? Look in your spam folder, or send a new code.'),
      screen.errorBox,
      h('button', { type: 'submit', class: 'primary', disabled: screen.busy }, 'Sign in'),
    ),
    h('button', { type: 'button', class: 'link', disabled: screen.busy, onclick: () => screen.sendCode() }, 'Send a new code'),
    backButton(screen),
    devHint,
  ];
}

function backButton(screen: SignInScreen): HTMLElement | null {
  return screen.back ? h('button', { type: 'button', class: 'link', disabled: screen.busy, onclick: screen.back }, 'Back to my listing') : null;
}
