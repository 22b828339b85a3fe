/**
 * What the payout checkout says when a call is refused, in the customer's words, and what
 * the page does about it: a link that can never work, a sign-in to do again, a payout that
 * moved on (read it again and show where it is), a wait, a service to try again shortly, or
 * something the customer typed to fix.
 */
import type { ErrorCode } from '../../../actors/errors/error-codes.js';
import { CashoutError } from './cashout-api.js';
import { formatAmount } from './format-amount.js';

type CashoutCode = Extract<ErrorCode, `CASHOUT_${string}`>;

/**
 * - `dead`: the link can never work; the page shows only that.
 * - `sign-in`: the customer signs in again.
 * - `moved`: the payout is no longer where the page thought; it is read again.
 * - `wait`: too many tries; `retry` the service could not do it now; `fix` what was typed.
 */
export type RefusalKind = 'dead' | 'sign-in' | 'moved' | 'wait' | 'retry' | 'fix';

/** The page's fields a refusal can be about: the sign-in code, the method's, and the account signed in to when connecting. */
export type RefusedField = 'code' | 'handle' | 'paypalEmail' | 'currency' | 'network' | 'token' | 'address' | 'account';

export interface Refusal {
  kind: RefusalKind;
  words: string;
  /** The field to mark invalid and move focus to. */
  field?: RefusedField;
}

/** What the customer chose when the refusal came, so the words can name it: "Venmo", "Base". */
export interface RefusalContext {
  railName?: string;
  networkName?: string;
  /** Connecting: the account the customer gave, which the one they signed in to must be. */
  account?: string;
}

/** What to do about a link that can never work, said under a heading that says it does not. */
export const DEAD_LINK_HELP = 'Open the latest link from your e-mail, or ask whoever is paying you for a new one.';
const DEAD_LINK = `This payout link does not work. ${DEAD_LINK_HELP}`;
const TRY_SHORTLY = 'Try again in a moment.';

/** Every CASHOUT_* code in words, so a code the API adds to its table fails to compile here until it has them. */
export const CASHOUT_WORDS: Record<CashoutCode, string> = {
  CASHOUT_CODES_RATIONED: 'You asked for too many codes. Wait a few minutes, then ask for a new one.',
  CASHOUT_CODE_INVALID: 'That code did not work. Check the e-mail and try again.',
  CASHOUT_CODE_NOT_SENT: `We could not e-mail your code just now. ${TRY_SHORTLY}`,
  CASHOUT_SIGNER_UNAVAILABLE: `We could not set your wallet up for payouts just now. ${TRY_SHORTLY}`,
  CASHOUT_SEND_FAILED: 'The transfer did not go through, so your USDC is still in your wallet. Try sending it again.',
  CASHOUT_PAYOUT_REFUNDED: 'The crypto could not be delivered, so your USDC came back to your wallet. Send it again, or choose another way to be paid.',
  CASHOUT_SEND_UNAVAILABLE: `Your payout could not be sent just now, and nothing left your wallet. ${TRY_SHORTLY}`,
  CASHOUT_LINK_EXPIRED: 'This payout has ended, so nothing more can be done on it.',
  CASHOUT_LOGIN_INVALID: 'Your sign-in has expired. Sign in again to carry on.',
  CASHOUT_LOGIN_REQUIRED: 'Sign in to carry on.',
  CASHOUT_TOKEN_INVALID: DEAD_LINK,
  CASHOUT_PLAYER_MISMATCH: 'You are signed in as someone else. Sign in with a code sent to this payout’s e-mail.',
  CASHOUT_NOT_FOUND: DEAD_LINK,
  CASHOUT_ATTEMPT_NOT_LISTED: 'Your payout is not listed right now, so there is nothing to take back.',
  CASHOUT_BUYER_PAYMENT_ACTIVE: 'A buyer is paying you right now. Wait until their payment is done, then change how you are paid.',
  CASHOUT_CONFIRM_CONFLICT: 'Your payout changed while you were confirming. Check it and try again.',
  CASHOUT_METHOD_LOCKED: 'How you are paid can no longer change: your payout is already listed for buyers.',
  CASHOUT_NOT_READY: 'Your payout is not ready to list yet. Choose how you want to be paid first.',
  CASHOUT_PAYOUT_BRIDGING: 'Your crypto payout is on its way. Wait until it arrives.',
  CASHOUT_PAYOUT_QUOTE_NOT_ALLOWED: 'A price cannot be given for this payout right now.',
  CASHOUT_RELIST_NOT_ALLOWED: 'Your payout cannot be listed again right now.',
  CASHOUT_REMAINDER_CHANGED: 'What is left of your payout changed. Check the amount and try again.',
  CASHOUT_SEND_IN_PROGRESS: 'Your payout is on its way right now: being listed, taken back or sent. This page updates by itself.',
  CASHOUT_SEND_NOT_ALLOWED: 'Your payout cannot be sent right now.',
  CASHOUT_SIGNER_NOT_ATTACHED: `Your wallet is not set up for payouts yet. ${TRY_SHORTLY}`,
  CASHOUT_SKIP_NOT_ALLOWED: 'There is no account connection to skip any more.',
  CASHOUT_WALLET_SHORT: 'Your wallet no longer holds all of this payout’s USDC, so it cannot be paid out.',
  CASHOUT_ADDRESS_NOT_ALLOWED: 'That address cannot be paid. Check it and paste it again.',
  CASHOUT_AMOUNT_OUTSIDE_RAIL_LIMITS: 'Your payout’s amount cannot be listed on this app. Choose another way to be paid.',
  CASHOUT_CREDENTIAL_INACTIVE: 'The connection to your account has lapsed. Connect it again to list your payout, or change how you are paid.',
  CASHOUT_PAYEE_HANDLE_INVALID: 'That account does not look right. Check it and try again.',
  CASHOUT_PAYEE_NOT_FOUND: 'We could not find that account. Check it and try again.',
  CASHOUT_PAYEE_NOT_REGISTERED: 'That PayPal account is not set up to be paid yet. Set it up first, or choose another way to be paid.',
  CASHOUT_PAYOUT_AMOUNT_TOO_LOW: 'Your payout is too small to be sent this way. Choose another way to be paid.',
  CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED: 'That token cannot be sent on this network. Choose another token.',
  CASHOUT_PAYOUT_NETWORK_UNAVAILABLE: 'This payout can no longer be sent on that network. Choose another one.',
  CASHOUT_PAYOUT_ROUTE_UNAVAILABLE: 'That network cannot be reached right now. Choose another one, or try again later.',
  CASHOUT_PAYPAL_EMAIL_INVALID: 'That PayPal e-mail is not an e-mail address.',
  CASHOUT_PAYPAL_EMAIL_MISMATCH: 'That e-mail is not the one of this PayPal account.',
  CASHOUT_RAIL_UNAVAILABLE: 'This payout can no longer be paid that way. Choose another one.',
  CASHOUT_PAYOUT_QUOTE_FAILED: `We could not price your payout just now. ${TRY_SHORTLY}`,
  CASHOUT_LISTING_UNAVAILABLE: `Your payout could not be listed just now, and nothing was sent. ${TRY_SHORTLY}`,
  CASHOUT_PAYEE_UNAVAILABLE: `We could not check that account just now. ${TRY_SHORTLY}`,
};

/** CASHOUT_CODE_INVALID's reasons. */
export const CODE_WORDS: Record<string, string> = {
  WRONG_CODE: 'That code is not right. Check the e-mail and type it again.',
  CODE_EXPIRED: 'That code has expired. Ask for a new one.',
  NO_CODE: 'No code was sent for this payout yet. Ask for one.',
  CODE_USED: 'That code was already used. Ask for a new one.',
  TOO_MANY_TRIES: 'Too many wrong tries for that code. Ask for a new one.',
};

/** CASHOUT_ADDRESS_NOT_ALLOWED's reasons. */
const ADDRESS_WORDS: Record<string, (network: string) => string> = {
  INVALID: (network) => `That is not an address on ${network}. Check it and paste it again.`,
  ZERO: () => 'That address burns whatever is sent to it. Give an address of your own.',
  OWN_WALLET: () => 'That is the wallet your payout is already in. Give an address of yours somewhere else.',
  ESCROW: () => 'That is the escrow’s address, not yours. Give an address of your own.',
  TOKEN: () => 'That is a token’s contract: anything sent there is lost. Give an address of your own.',
};

const FIELD_OF: Partial<Record<CashoutCode, RefusedField>> = {
  CASHOUT_CODE_INVALID: 'code',
  CASHOUT_PAYEE_HANDLE_INVALID: 'handle',
  CASHOUT_PAYEE_NOT_FOUND: 'handle',
  CASHOUT_PAYEE_NOT_REGISTERED: 'handle',
  CASHOUT_PAYPAL_EMAIL_INVALID: 'paypalEmail',
  CASHOUT_PAYPAL_EMAIL_MISMATCH: 'paypalEmail',
  CASHOUT_ADDRESS_NOT_ALLOWED: 'address',
  CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED: 'token',
  CASHOUT_PAYOUT_NETWORK_UNAVAILABLE: 'network',
  CASHOUT_PAYOUT_ROUTE_UNAVAILABLE: 'network',
};

/** The API's field names in a validation 400, as the page's fields. */
const FIELD_NAMES: Record<string, RefusedField> = {
  code: 'code',
  payeeHandle: 'handle',
  paypalEmail: 'paypalEmail',
  currency: 'currency',
  rail: 'network',
  tokenAddress: 'token',
  address: 'address',
};

const DEAD = new Set<string>(['CASHOUT_TOKEN_INVALID', 'CASHOUT_NOT_FOUND']);
const SIGN_IN_AGAIN = new Set<string>(['CASHOUT_LOGIN_REQUIRED', 'CASHOUT_LOGIN_INVALID', 'CASHOUT_PLAYER_MISMATCH']);

export function refusalOf(error: unknown, context: RefusalContext = {}): Refusal {
  // fetch rejects with a TypeError when the node cannot be reached at all.
  if (!(error instanceof CashoutError))
    return error instanceof TypeError
      ? { kind: 'retry', words: 'We could not reach the server. Check your connection and try again.' }
      : { kind: 'retry', words: 'Something went wrong on this page. Reload it and try again.' };
  const code = error.code;
  if (error.status === 429) return { kind: 'wait', words: `Too many tries for now. Wait ${waitWords(error.retryAfterSeconds ?? 60)}, then try again.` };
  if (code === null || !(code in CASHOUT_WORDS)) return uncoded(error);
  const words = CASHOUT_WORDS[code as CashoutCode];
  if (DEAD.has(code)) return { kind: 'dead', words };
  if (SIGN_IN_AGAIN.has(code)) return { kind: 'sign-in', words };
  const field = FIELD_OF[code as CashoutCode];
  const reason = typeof error.details?.reason === 'string' ? error.details.reason : '';
  if (code === 'CASHOUT_CODE_INVALID') return { kind: 'fix', words: CODE_WORDS[reason] ?? words, field: 'code' };
  if (code === 'CASHOUT_ADDRESS_NOT_ALLOWED')
    return { kind: 'fix', words: ADDRESS_WORDS[reason]?.(context.networkName ?? 'this network') ?? words, field: 'address' };
  if (code === 'CASHOUT_WALLET_SHORT') return { kind: 'moved', words: shortWords(error.details?.walletShortfall) ?? words };
  if (code === 'CASHOUT_PAYEE_HANDLE_INVALID' && context.account !== undefined)
    return {
      kind: 'fix',
      words: `That is not the ${context.railName ?? 'same'} account you gave (${context.account}). Sign in to ${context.account} and connect again, or change how you are paid.`,
      field: 'account',
    };
  if (code === 'CASHOUT_PAYEE_HANDLE_INVALID' && context.railName)
    return { kind: 'fix', words: `That is not a ${context.railName} account we can pay. Check it and try again.`, field };
  // Every refusal of the payout's state (a 409, or an action on an ended payout) means the page is behind: read it again.
  if (error.status === 409 || code === 'CASHOUT_LINK_EXPIRED') return { kind: 'moved', words };
  if (error.status >= 500) return { kind: 'retry', words };
  return field ? { kind: 'fix', words, field } : { kind: 'fix', words };
}

/** Why the latest confirm did not list or send (the state's listingError): its code's words, or the node's own message. */
export function listingErrorWords(listingError: { code: string; message: string }): string {
  if (listingError.code in CASHOUT_WORDS) return CASHOUT_WORDS[listingError.code as CashoutCode];
  const message = listingError.message.trim();
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? '' : '.'}`;
}

/** CASHOUT_WALLET_SHORT's refusal carries the checkout state with how much the wallet holds of what the payout needs. */
function shortWords(shortfall: unknown): string | null {
  const { requiredAmount, availableAmount } = (shortfall ?? {}) as { requiredAmount?: unknown; availableAmount?: unknown };
  if (typeof requiredAmount !== 'string' || typeof availableAmount !== 'string') return null;
  return `Your wallet holds ${formatAmount(availableAmount, 'USDC')} of the ${formatAmount(requiredAmount, 'USDC')} this payout needs: the rest was spent in the wallet app, so it cannot be paid out.`;
}

/** A refusal without a CASHOUT_* code: the validation 400, the node unavailable, or a code of the whole API. */
function uncoded(error: CashoutError): Refusal {
  if (error.status === 400 && error.code === null) {
    const [name] = Object.keys(error.fieldErrors);
    const field = name ? FIELD_NAMES[name] : undefined;
    if (field === 'code') return { kind: 'fix', words: 'Enter the 6 digits of the code we e-mailed you.', field };
    return field
      ? { kind: 'fix', words: 'That does not look right. Check it and try again.', field }
      : { kind: 'fix', words: 'The page sent something the server could not read. Reload it and try again.' };
  }
  if (error.status >= 500 || error.code === 'RATE_UNAVAILABLE')
    return { kind: 'retry', words: `We cannot do that just now: the service is busy or down for a moment. ${TRY_SHORTLY}` };
  return { kind: 'fix', words: error.message };
}

/** "45 seconds", "1 minute", "3 minutes": a 429's wait, rounded up to whole minutes past one. */
export function waitWords(seconds: number): string {
  if (seconds <= 1) return '1 second';
  if (seconds < 60) return `${Math.ceil(seconds)} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
