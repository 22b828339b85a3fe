/**
 * How the customer chooses to be paid, as the page holds it while they type: a fiat rail with
 * their account on it (and a currency on PayPal and Revolut, and PayPal's e-mail), or "Crypto",
 * which asks the network, the token and the address. The rails come from the payout's state;
 * the handle rules, currencies and networks' tokens from the same catalogs the API checks
 * against (machines/payout/), so the page refuses here what the API would refuse there.
 */
import { DESTINATION_NETWORKS, type DestinationNetwork } from '../../../machines/payout/destination-catalog.js';
import { handleRuleOf, payeeIdOn, RAIL_CURRENCIES } from '../../../machines/payout/payout-methods.js';
import { PAYOUT_FIAT_RAILS, type PayoutFiatRail } from '../../../machines/payout/payout-rails.js';
import type { CashoutState, SaveMethodBody } from './cashout-api.js';
import type { RefusedField } from './cashout-words.js';

/** Every crypto rail is one choice; the network is asked after it. */
export const CRYPTO_CHOICE = 'crypto';

export interface MethodDraft {
  /** A fiat rail or CRYPTO_CHOICE; null until chosen. */
  choice: string | null;
  handle: string;
  currency: string;
  paypalEmail: string;
  network: string | null;
  tokenAddress: string | null;
  address: string;
}

export interface MethodChoices {
  fiat: PayoutFiatRail[];
  networks: DestinationNetwork[];
}

interface HandleField {
  label: string;
  inputmode?: string;
  autocomplete?: string;
  type?: string;
}

/** How each rail asks for the customer's account; the hint under it is the rule the API holds it to. */
const HANDLE_FIELDS: Record<PayoutFiatRail, HandleField> = {
  venmo: { label: 'Your Venmo user ID', inputmode: 'numeric' },
  cashapp: { label: 'Your $Cashtag' },
  paypal: { label: 'Your PayPal e-mail', type: 'email', inputmode: 'email', autocomplete: 'email' },
  zelle: { label: 'Your Zelle e-mail or US phone number', inputmode: 'email' },
  revolut: { label: 'Your Revtag' },
  chime: { label: 'Your $ChimeSign' },
};

export function isFiatRail(rail: string | null): rail is PayoutFiatRail {
  return (PAYOUT_FIAT_RAILS as readonly (string | null)[]).includes(rail);
}

export function methodChoices(state: CashoutState): MethodChoices {
  const offered = new Set(state.rails.map((rail) => rail.rail));
  return {
    fiat: PAYOUT_FIAT_RAILS.filter((rail) => offered.has(rail)),
    networks: DESTINATION_NETWORKS.filter((network) => offered.has(network.rail)),
  };
}

export function handleField(rail: PayoutFiatRail): HandleField & { hint: string } {
  return { ...HANDLE_FIELDS[rail], hint: `It must be ${handleRuleOf(rail)}.` };
}

/** What a handle on `rail` is, without its rule: "a Venmo user id", "an e-mail address or a US phone number". */
export function handleKind(rail: PayoutFiatRail): string {
  return handleRuleOf(rail)
    .split(', or ')
    .map((rule) => rule.split(/:| such as/)[0]!.trim())
    .join(' or ');
}

/** The currencies a rail pays in, USD first; one means there is nothing to choose. */
export function currenciesOf(rail: PayoutFiatRail): readonly string[] {
  return RAIL_CURRENCIES[rail];
}

/** The form as the saved method fills it, or empty, with the first network and its first token picked. */
export function draftOf(state: CashoutState, choices: MethodChoices): MethodDraft {
  const method = state.method;
  const network = choices.networks.find((candidate) => candidate.rail === method?.rail) ?? choices.networks[0] ?? null;
  const draft: MethodDraft = {
    choice: choices.fiat.length + choices.networks.length === 1 ? (choices.fiat[0] ?? CRYPTO_CHOICE) : null,
    handle: '',
    currency: 'USD',
    paypalEmail: '',
    network: network?.rail ?? null,
    tokenAddress: network ? preferredToken(network) : null,
    address: '',
  };
  if (method && 'handle' in method) return { ...draft, choice: method.rail, handle: method.handle, currency: method.currency };
  if (method && 'destination' in method)
    return { ...draft, choice: CRYPTO_CHOICE, tokenAddress: method.destination.tokenAddress, address: method.destination.address };
  return draft;
}

/** USDC where the network has it: what the payout already is, so nothing is swapped. */
export function preferredToken(network: DestinationNetwork): string | null {
  return (network.tokens.find((token) => token.symbol === 'USDC') ?? network.tokens[0])?.address ?? null;
}

export type DraftCheck = { body: SaveMethodBody } | { problem: string; field: RefusedField | 'choice' };

/** The body PUT …/method takes, or what is missing or wrong, said for the customer. */
export function methodBody(draft: MethodDraft, choices: MethodChoices): DraftCheck {
  const rail = draft.choice;
  if (rail === CRYPTO_CHOICE) {
    const network = choices.networks.find((candidate) => candidate.rail === draft.network);
    if (!network) return { problem: 'Choose the network to be paid on.', field: 'network' };
    const token = network.tokens.find((candidate) => candidate.address === draft.tokenAddress);
    if (!token) return { problem: 'Choose the token to receive.', field: 'token' };
    const address = draft.address.trim();
    if (!address) return { problem: `Paste your address on ${network.name}.`, field: 'address' };
    return { body: { rail: network.rail, tokenAddress: token.address, address } };
  }
  if (!isFiatRail(rail) || !choices.fiat.includes(rail)) return { problem: 'Choose how you want to be paid.', field: 'choice' };
  const handle = draft.handle.trim();
  const field = handleField(rail);
  if (!handle) return { problem: `Enter ${field.label.replace(/^Your/, 'your')}.`, field: 'handle' };
  if (payeeIdOn(rail, handle) === null) return { problem: `That is not ${handleKind(rail)}.`, field: 'handle' };
  const currencies = currenciesOf(rail);
  if (!currencies.includes(draft.currency)) return { problem: 'Choose the currency you want to receive.', field: 'currency' };
  const currency = currencies.length > 1 ? { currency: draft.currency } : {};
  if (rail !== 'paypal') return { body: { rail, payeeHandle: handle, ...currency } };
  const paypalEmail = draft.paypalEmail.trim();
  if (!paypalEmail) return { problem: 'Type your PayPal e-mail again to confirm it.', field: 'paypalEmail' };
  if (paypalEmail.toLowerCase() !== handle.toLowerCase()) return { problem: 'The two PayPal e-mails are not the same.', field: 'paypalEmail' };
  return { body: { rail, payeeHandle: handle, paypalEmail, ...currency } };
}
