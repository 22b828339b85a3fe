/**
 * Choosing how to be paid: the payout's fiat rails by name and every crypto rail as one
 * "Crypto" choice, then what the chosen one needs (cashout-method-draft.ts). Typing changes
 * the draft without redrawing; a new choice redraws the fields it needs. The crypto fields
 * (network, token, address) also ask where a listing's rest is sent.
 */
import type { DestinationNetwork } from '../../../machines/payout/destination-catalog.js';
import { h } from './dom.js';
import { CRYPTO_CHOICE, currenciesOf, handleField, isFiatRail, type MethodChoices, type MethodDraft, preferredToken } from './cashout-method-draft.js';
import { railName } from './rail-names.js';

/** What the fields need: the draft they write into, and the refusal to mark. */
export interface FieldsScreen {
  draft: MethodDraft;
  /** The field a refusal is about. */
  invalid: string | null;
  errorBox: HTMLElement | null;
  /** A change the fields below depend on (the choice, the network): redraw. */
  onChoose(draft: MethodDraft): void;
}

export interface MethodScreen extends FieldsScreen {
  choices: MethodChoices;
  busy: boolean;
  /** Why the customer chooses again, when they do (a listing taken back, a part paid already). */
  lead: string | null;
  /** Offered when a method is saved already: back to it, unchanged. */
  cancel: (() => void) | null;
  save(): void;
}

export function methodScreen(screen: MethodScreen): (HTMLElement | null)[] {
  const { choices } = screen;
  const options = [
    ...choices.fiat.map((rail) =>
      option(
        screen,
        rail,
        railName(rail),
        `A buyer sends you money on ${railName(rail)}${currenciesOf(rail).length > 1 ? ', in USD or another currency' : ''}`,
      ),
    ),
    choices.networks.length > 0
      ? option(
          screen,
          CRYPTO_CHOICE,
          'Crypto',
          `Sent to your own address on ${choices.networks.length === 1 ? choices.networks[0]!.name : 'a network you choose'}`,
        )
      : null,
  ];
  return [
    h('h1', {}, 'Choose how to be paid'),
    screen.lead ? h('p', {}, screen.lead) : null,
    h(
      'form',
      { class: 'stack', novalidate: true, onsubmit: (event: Event) => (event.preventDefault(), screen.save()) },
      h('fieldset', {}, h('legend', {}, 'Get paid with'), ...options),
      ...fields(screen),
      screen.errorBox,
      h('button', { type: 'submit', class: 'primary', disabled: screen.busy }, 'Continue'),
    ),
    screen.cancel ? h('button', { type: 'button', class: 'link', disabled: screen.busy, onclick: screen.cancel }, 'Keep how I am paid now') : null,
  ];
}

function option(screen: MethodScreen, value: string, name: string, detail: string): HTMLElement {
  const id = `choice-${value}`;
  return h(
    'label',
    { class: 'choice', for: id },
    h('input', {
      type: 'radio',
      id,
      name: 'choice',
      value,
      checked: screen.draft.choice === value,
      'aria-labelledby': `${id}-name`,
      'aria-describedby': `${id}-detail`,
      'aria-invalid': screen.invalid === 'choice' ? 'true' : undefined,
      onchange: () => screen.onChoose({ ...screen.draft, choice: value }),
    }),
    h('span', { class: 'choice-name', id: `${id}-name` }, name),
    h('span', { class: 'choice-detail', id: `${id}-detail` }, detail),
  );
}

/** What the chosen method needs, each field written into the draft as it is typed. */
function fields(screen: MethodScreen): (HTMLElement | null)[] {
  const { draft } = screen;
  const rail = draft.choice;
  if (rail === CRYPTO_CHOICE) return cryptoFields(screen, screen.choices.networks);
  if (!isFiatRail(rail)) return [];
  const handle = handleField(rail);
  const currencies = currenciesOf(rail);
  return [
    field(screen, 'handle', handle.label, handle.hint, {
      value: draft.handle,
      type: handle.type ?? 'text',
      inputmode: handle.inputmode,
      autocomplete: handle.autocomplete ?? 'off',
      oninput: (event: Event) => (draft.handle = (event.target as HTMLInputElement).value),
    }),
    rail === 'paypal'
      ? field(
          screen,
          'paypalEmail',
          'Your PayPal e-mail, again',
          'PayPal pays only an account already set up to be paid. Type its e-mail twice, so a typo cannot send your money elsewhere.',
          {
            value: draft.paypalEmail,
            type: 'email',
            inputmode: 'email',
            autocomplete: 'email',
            oninput: (event: Event) => (draft.paypalEmail = (event.target as HTMLInputElement).value),
          },
        )
      : null,
    currencies.length > 1
      ? select(
          screen,
          'currency',
          'Currency you receive',
          currencies.map((currency) => ({ value: currency, label: currency })),
          draft.currency,
          (value) => (draft.currency = value),
        )
      : null,
  ];
}

/** Where crypto goes: the network (of `networks`), its token, the address; a new network redraws its tokens. */
export function cryptoFields(screen: FieldsScreen, networks: readonly DestinationNetwork[]): (HTMLElement | null)[] {
  const { draft } = screen;
  const network = networks.find((candidate) => candidate.rail === draft.network) ?? null;
  return [
    select(
      screen,
      'network',
      'Network',
      networks.map((candidate) => ({ value: candidate.rail, label: candidate.name })),
      draft.network ?? '',
      (value) => {
        const chosen = networks.find((candidate) => candidate.rail === value);
        screen.onChoose({ ...draft, network: value, tokenAddress: chosen ? preferredToken(chosen) : null });
      },
    ),
    network
      ? select(
          screen,
          'token',
          'Token',
          network.tokens.map((token) => ({ value: token.address, label: token.symbol })),
          draft.tokenAddress ?? '',
          (value) => (draft.tokenAddress = value),
        )
      : null,
    field(
      screen,
      'address',
      `Your address on ${network?.name ?? 'the network'}`,
      'Paste it from your wallet, and check it: money sent to a wrong address cannot be got back.',
      {
        value: draft.address,
        autocomplete: 'off',
        class: 'mono',
        oninput: (event: Event) => (draft.address = (event.target as HTMLInputElement).value),
      },
    ),
  ];
}

type Attributes = Record<string, string | boolean | ((event: Event) => void) | undefined>;

function described(screen: FieldsScreen, name: string): Attributes {
  const invalid = screen.invalid === name;
  return {
    id: `field-${name}`,
    name,
    'aria-describedby': [`${name}-hint`, invalid && screen.errorBox ? 'step-error' : ''].filter(Boolean).join(' '),
    'aria-invalid': invalid ? 'true' : undefined,
  };
}

function field(screen: FieldsScreen, name: string, label: string, hint: string, attributes: Attributes): HTMLElement {
  return h(
    'div',
    { class: 'stack field' },
    h('label', { for: `field-${name}` }, label),
    h('input', { ...described(screen, name), required: true, spellcheck: 'false', autocapitalize: 'off', ...attributes }),
    h('p', { id: `${name}-hint`, class: 'hint' }, hint),
  );
}

function select(
  screen: FieldsScreen,
  name: string,
  label: string,
  options: { value: string; label: string }[],
  chosen: string,
  onChange: (value: string) => void,
): HTMLElement {
  const { id, 'aria-invalid': invalid } = described(screen, name);
  return h(
    'div',
    { class: 'stack field' },
    h('label', { for: `field-${name}` }, label),
    h(
      'select',
      { id, name, 'aria-invalid': invalid, onchange: (event: Event) => onChange((event.target as HTMLSelectElement).value) },
      ...options.map((option) => h('option', { value: option.value, selected: option.value === chosen }, option.label)),
    ),
  );
}
