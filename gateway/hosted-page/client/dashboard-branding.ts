/**
 * How the business's hosted checkout looks (docs/branding.md): Peer's branding shown or
 * hidden, and an optional theme of one accent colour and a colour mode. An Owner or a
 * Manager saves it (for live and sandbox alike); a cashier sees it and cannot change it.
 * The checkout page picks it up at its next poll.
 */
import type { Branding, ThemeMode } from './dashboard-api.js';
import { errorBox } from './dashboard-ui.js';
import type { View } from './dashboard-view.js';
import { announce, h } from './dom.js';

const MODES = [
  ['auto', 'Follow the customer’s device'],
  ['light', 'Light'],
  ['dark', 'Dark'],
] as const;
const DEFAULT_ACCENT = '#2450D8';

export const brandingView: View = async ({ api, session }) => {
  const branding = await api.branding();
  const mayEdit = session.role === 'OWNER' || session.role === 'MANAGER';
  const hide = h('input', { id: 'branding-hide', type: 'checkbox', checked: branding.disableBranding, disabled: !mayEdit });
  const themed = h('input', { id: 'branding-themed', type: 'checkbox', checked: branding.checkoutTheme !== null, disabled: !mayEdit });
  const accent = h('input', { id: 'branding-accent', type: 'color', value: branding.checkoutTheme?.accentColor ?? DEFAULT_ACCENT, disabled: !mayEdit });
  const mode = h(
    'select',
    { id: 'branding-mode', disabled: !mayEdit },
    ...MODES.map(([value, label]) => h('option', { value, selected: value === (branding.checkoutTheme?.mode ?? 'auto') }, label)),
  );
  const themeFields = h(
    'fieldset',
    { class: 'stack' },
    h('legend', {}, 'Theme'),
    h('label', { for: 'branding-accent' }, 'Accent colour'),
    accent,
    h('label', { for: 'branding-mode' }, 'Colours'),
    mode,
  );
  const showTheme = () => {
    themeFields.hidden = !themed.checked;
  };
  themed.addEventListener('change', showTheme);
  showTheme();
  const outcome = h('div', { 'aria-live': 'polite' });

  const form = h(
    'form',
    {
      class: 'panel stack',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        const change: Branding = {
          disableBranding: hide.checked,
          checkoutTheme: themed.checked ? { accentColor: accent.value.toUpperCase(), mode: mode.value as ThemeMode } : null,
        };
        try {
          await api.updateBranding(change);
          announce('Checkout look saved');
          outcome.replaceChildren(h('p', { class: 'hint' }, 'Saved. Open checkouts show it within a few seconds.'));
        } catch (error) {
          outcome.replaceChildren(errorBox(error));
        }
      },
    },
    h('label', { class: 'check' }, hide, ' Hide “Payments by Peer” on the checkout page'),
    h('label', { class: 'check' }, themed, ' Use my own theme'),
    themeFields,
    mayEdit ? h('button', { type: 'submit', class: 'primary' }, 'Save') : h('p', { class: 'hint' }, 'Only an Owner or a Manager may change this.'),
    outcome,
  );
  return [h('h1', {}, 'Checkout look'), h('p', { class: 'hint' }, 'Applies to your live and sandbox checkouts alike.'), form];
};
