/**
 * The API key of the session's environment: which one is in use (the profile's hint: prefix and
 * last four characters, since keys are kept only as hashes), and, for an Owner, a new one. The
 * new key is shown once; the old one stops working at once, so the confirmation says so.
 */
import { confirmButton, mono } from './dashboard-ui.js';
import type { View } from './dashboard-view.js';
import { announce, h } from './dom.js';
import { copyButton } from './copy-button.js';

export const apiKeyView: View = async ({ api, session }) => {
  const profile = await api.profile();
  const shown = h('div', { 'aria-live': 'polite' });
  const rotate =
    session.role === 'OWNER'
      ? confirmButton({
          label: 'Rotate key',
          question: `Make a new ${profile.environment.toLowerCase()} key? The current one stops working now: your backend must switch to the new key.`,
          confirm: 'Yes, make a new key',
          keep: 'Keep the current key',
          act: async () => {
            const rotated = await api.rotateApiKey();
            announce('New API key made');
            shown.replaceChildren(
              h(
                'section',
                { class: 'panel new-key' },
                h('h2', {}, 'Your new key'),
                h('p', {}, 'Copy it now: it is shown this once.'),
                h('p', { class: 'copyable' }, mono(rotated.apiKey), ' ', copyButton('API key', rotated.apiKey)),
                h('p', { class: 'hint' }, `From now on the key shows as ${rotated.apiKeyHint}.`),
              ),
            );
            current.textContent = rotated.apiKeyHint;
          },
        })
      : h('p', { class: 'hint' }, 'Only an Owner may rotate the key.');
  const current = mono(profile.apiKey);
  return [
    h('h1', {}, 'API key'),
    h(
      'section',
      { class: 'panel' },
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Account'),
        h('dd', {}, profile.name, ' ', mono(profile.id)),
        h('dt', {}, 'Environment'),
        h('dd', {}, profile.environment),
        h('dt', {}, 'Key in use'),
        h('dd', {}, current),
      ),
      h('p', { class: 'hint' }, 'The key is for your backend only, never a browser or an app.'),
      rotate,
    ),
    shown,
  ];
};
