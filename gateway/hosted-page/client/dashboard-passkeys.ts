/**
 * The signed-in member's passkeys (docs/dashboard-auth.md): each one listed with when it was
 * added and last used, removed behind a confirmation, and a new one added through the browser's
 * passkey prompt. Every member manages their own; nobody sees another's.
 */
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { DashboardError, type Passkey } from './dashboard-api.js';
import { confirmButton, errorBox, listTable } from './dashboard-ui.js';
import type { View, ViewContext } from './dashboard-view.js';
import { PASSKEY_REFUSALS, when } from './dashboard-words.js';
import { h } from './dom.js';

export const passkeysView: View = async (context) => {
  const { passkeys } = await context.api.passkeys();
  return [
    h('h1', {}, 'Passkeys'),
    h('p', {}, 'Sign in with this device’s screen lock or a security key instead of an e-mailed code. Your passkeys are yours: each member adds their own.'),
    listTable(
      'Your passkeys',
      ['Name', 'Added', 'Last used', ''],
      passkeys.map((passkey) => [
        passkey.name,
        when(passkey.createdAt),
        passkey.lastUsedAt ? when(passkey.lastUsedAt) : 'Never',
        removeButton(context, passkey),
      ]),
      'No passkey yet: you sign in with an e-mailed code.',
    ),
    browserSupportsWebAuthn() ? addForm(context) : h('p', { class: 'hint' }, 'This browser cannot make passkeys.'),
  ];
};

function removeButton(context: ViewContext, passkey: Passkey): HTMLElement {
  return confirmButton({
    label: 'Remove',
    question: `Remove “${passkey.name}”? It will not sign in any more.`,
    confirm: 'Yes, remove',
    keep: 'Keep',
    act: async () => {
      await context.api.removePasskey(passkey.passkeyId);
      context.reload();
    },
  });
}

function addForm(context: ViewContext): HTMLElement {
  const name = h('input', { id: 'field-passkey-name', name: 'name', maxlength: '64', placeholder: 'Work laptop' });
  const problem = h('div', { 'aria-live': 'polite' });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Add a passkey');
  return h(
    'form',
    {
      class: 'stack',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        button.disabled = true;
        try {
          const optionsJSON = await context.api.passkeyRegistrationOptions();
          await context.api.registerPasskey(await startRegistration({ optionsJSON }), name.value.trim() || undefined);
          context.reload();
        } catch (error) {
          button.disabled = false;
          problem.replaceChildren(
            error instanceof DashboardError
              ? errorBox(error, (failure) => PASSKEY_REFUSALS[String(failure.details?.reason)] ?? failure.message)
              : h('p', { role: 'alert', class: 'error' }, 'No passkey was made.'),
          );
        }
      },
    },
    h('h2', {}, 'Add a passkey'),
    h('label', { for: 'field-passkey-name' }, 'Name (optional)'),
    name,
    problem,
    button,
  );
}
