/**
 * Signing in to the dashboard: the member's address, then the 6-digit code mailed to it
 * (docs/dashboard-auth.md). An address on several businesses' teams picks one; the code is spent
 * by then, so a new one is sent. A development node catches its mail, and the page links to it.
 * Or, in a browser that has passkeys, with a passkey the member registered (it names the member).
 */
import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { type DashboardApi, DashboardError, type DashboardSession } from './dashboard-api.js';
import { errorBox } from './dashboard-ui.js';
import { PASSKEY_REFUSALS, SIGN_IN_REFUSALS } from './dashboard-words.js';
import { h } from './dom.js';

interface Business {
  merchantId: string;
  name: string;
}

export function signInScreen(
  api: DashboardApi,
  caughtMailUrl: string | null,
  notice: string | null,
  signedIn: (session: DashboardSession) => void,
): HTMLElement {
  const root = h('section', { class: 'sign-in panel', 'aria-labelledby': 'sign-in-title' });
  let email = '';
  let businesses: Business[] = [];
  let merchantId: string | undefined;
  const devHint = caughtMailUrl
    ? h(
        'p',
        { class: 'dev-hint' },
        'Development node: codes are caught, not e-mailed. ',
        h('a', { href: caughtMailUrl, target: '_blank', rel: 'noopener noreferrer' }, 'Read your code in the caught mail'),
        '.',
      )
    : null;

  const show = (...children: (Node | null)[]) => {
    root.replaceChildren(h('h1', { id: 'sign-in-title' }, 'Merchant dashboard'), ...children.filter((child): child is Node => child !== null));
    root.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  };

  const sendCode = async (problem?: HTMLElement) => {
    try {
      await api.requestCode(email);
      codeStep(problem ?? null);
    } catch (error) {
      emailStep(errorBox(error));
    }
  };

  const withPasskey = async () => {
    try {
      const optionsJSON = await api.passkeySignInOptions();
      signedIn(await api.signInWithPasskey(await startAuthentication({ optionsJSON })));
    } catch (error) {
      // The browser's own refusal (the member closed the prompt) is an Error with no code: said plainly.
      emailStep(
        error instanceof DashboardError
          ? errorBox(error, (failure) => PASSKEY_REFUSALS[String(failure.details?.reason)] ?? failure.message)
          : h('p', { role: 'alert', class: 'error' }, 'No passkey was used. Try again, or sign in with an e-mailed code.'),
      );
    }
  };

  const emailStep = (problem: HTMLElement | null) => {
    const input = h('input', { id: 'field-email', type: 'email', name: 'email', autocomplete: 'email', required: true, 'data-autofocus': true, value: email });
    show(
      notice ? h('p', { role: 'status', class: 'notice' }, notice) : null,
      h('p', {}, 'Sign in with the e-mail address your team added. We send you a 6-digit code.'),
      h(
        'form',
        {
          class: 'stack',
          onsubmit: (event: Event) => {
            event.preventDefault();
            email = input.value.trim();
            if (email) void sendCode();
          },
        },
        h('label', { for: 'field-email' }, 'E-mail'),
        input,
        problem,
        h('button', { type: 'submit', class: 'primary' }, 'Send me a code'),
      ),
      browserSupportsWebAuthn()
        ? h('p', { class: 'or' }, h('button', { type: 'button', class: 'secondary', onclick: () => void withPasskey() }, 'Sign in with a passkey'))
        : null,
    );
  };

  const chooser = () =>
    businesses.length
      ? h(
          'fieldset',
          { class: 'stack' },
          h('legend', {}, 'Which business?'),
          ...businesses.map((business) =>
            h(
              'label',
              { class: 'choice' },
              h('input', {
                type: 'radio',
                name: 'business',
                value: business.merchantId,
                checked: business.merchantId === merchantId,
                onchange: () => (merchantId = business.merchantId),
              }),
              ` ${business.name}`,
            ),
          ),
        )
      : null;

  const codeStep = (problem: HTMLElement | null) => {
    const input = h('input', {
      id: 'field-code',
      name: 'code',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      maxlength: '7',
      required: true,
      'data-autofocus': true,
    });
    const button = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
    show(
      h('p', { role: 'status' }, `We e-mailed a 6-digit code to ${email} if it is on a team. It works for 10 minutes.`),
      h(
        'form',
        {
          class: 'stack',
          onsubmit: async (event: Event) => {
            event.preventDefault();
            button.disabled = true;
            try {
              signedIn(await api.signIn({ email, code: input.value.replace(/[\s-]/g, ''), ...(merchantId ? { merchantId } : {}) }));
            } catch (error) {
              if (error instanceof DashboardError && error.code === 'MERCHANT_REQUIRED') {
                businesses = (error.details?.merchants as Business[] | undefined) ?? [];
                merchantId = businesses[0]?.merchantId;
                // The code was spent on the question: a new one comes for the chosen business.
                return void sendCode(
                  h('p', { role: 'alert', class: 'notice' }, 'Your address is on several teams: choose one and sign in with the new code we sent.'),
                );
              }
              codeStep(errorBox(error, (failure) => SIGN_IN_REFUSALS[String(failure.details?.reason)] ?? failure.message));
            }
          },
        },
        chooser(),
        h('label', { for: 'field-code' }, '6-digit code'),
        input,
        problem,
        button,
      ),
      h('button', { type: 'button', class: 'link', onclick: () => void sendCode() }, 'Send a new code'),
      h('button', { type: 'button', class: 'link', onclick: () => emailStep(null) }, 'Use another address'),
      devHint,
    );
  };

  emailStep(null);
  return root;
}
