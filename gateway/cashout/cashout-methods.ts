/**
 * The customer's method, as the checkout saves it (docs/payout-checkout.md, "Choosing how to
 * be paid"): a fiat rail with the customer's handle (and a currency on PayPal and Revolut), or
 * a crypto destination (document 2's CashoutPayoutDestinationRequest). Each is checked here
 * against the platform's rules and the payout catalog, and becomes the machine's PayoutMethod.
 */
import { z } from 'zod';
import type { PayeeDirectory } from '../../actors/market/payee-directory.js';
import { idHash } from '../../machines/id-hash.js';
import { payeeIdAs } from '../../machines/maker/payee-ids.js';
import {
  addressRefusal,
  destinationAddress,
  destinationToken,
  fiatConnectionOf,
  handleRuleOf,
  payeeIdOn,
  PAYOUT_CRYPTO_RAILS,
  RAIL_CURRENCIES,
  type PayoutMethod,
} from '../../machines/payout/index.js';
import { cashoutError } from './cashout-access.js';

/** Document 2: each destination field a trimmed string of 1 to 64 characters. */
const field = (description: string) => z.string().trim().min(1).max(64).meta({ description });
const handle = z.string().trim().min(1).max(254).meta({ description: 'The customer’s account on the rail: what a buyer pays' });

const usdRail = (rail: 'venmo' | 'cashapp' | 'zelle' | 'chime', example: string) =>
  z.strictObject({ rail: z.literal(rail).meta({ description: 'The fiat rail (PayoutFiatRail)' }), payeeHandle: handle.meta({ example }) });

export const cryptoDestinationRequest = z
  .strictObject({
    rail: z.enum(PAYOUT_CRYPTO_RAILS).meta({ description: 'The network (PayoutCryptoRail)' }),
    tokenAddress: field('The token to receive, as the payout catalog names it on that network'),
    address: field('Where to send it, in the network’s own address format'),
  })
  .meta({ id: 'CashoutPayoutDestinationRequest' });

export const saveMethodBody = z
  .union([
    usdRail('venmo', '3141592653'),
    usdRail('cashapp', '$AnaPays'),
    usdRail('zelle', 'ana@example.com'),
    usdRail('chime', '$Ana-Pays'),
    z.strictObject({
      rail: z.literal('revolut').meta({ description: 'The fiat rail (PayoutFiatRail)' }),
      payeeHandle: handle.meta({ example: '@anapays' }),
      currency: z.enum(RAIL_CURRENCIES.revolut).meta({ description: 'A currency Revolut pays' }),
    }),
    z.strictObject({
      rail: z.literal('paypal').meta({ description: 'The fiat rail (PayoutFiatRail)' }),
      payeeHandle: handle.meta({ example: 'ana@example.com' }),
      paypalEmail: z.string().trim().min(3).max(254).meta({ description: 'The e-mail of the PayPal account already set up' }),
      currency: z.enum(RAIL_CURRENCIES.paypal).meta({ description: 'A currency PayPal pays' }),
    }),
    cryptoDestinationRequest,
  ])
  .meta({ id: 'CashoutSaveMethod', description: 'A fiat rail with the customer’s handle, or a crypto destination' });

export type SaveMethodBody = z.infer<typeof saveMethodBody>;

export interface MethodChecks {
  /** The payout's rails now (less any an operator removed). */
  rails: readonly string[];
  payees: PayeeDirectory | null;
  walletAddress: string;
  escrow: string | null;
}

/** The method the body asks for, checked; a refusal is document 2's 422 with what to change. */
export async function methodOf(body: SaveMethodBody, checks: MethodChecks): Promise<PayoutMethod> {
  if (!checks.rails.includes(body.rail))
    throw 'tokenAddress' in body
      ? cashoutError('CASHOUT_PAYOUT_NETWORK_UNAVAILABLE', `This payout is not paid out on ${body.rail}`)
      : cashoutError('CASHOUT_RAIL_UNAVAILABLE', `This payout does not offer ${body.rail}`);
  if ('tokenAddress' in body) {
    const token = destinationToken(body.rail, body.tokenAddress);
    if (!token) throw cashoutError('CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED', `That token is not paid out on ${body.rail}`);
    const refusal = addressRefusal(body.rail, body.address, { ownWallet: checks.walletAddress, escrow: checks.escrow ?? '' });
    if (refusal) throw cashoutError('CASHOUT_ADDRESS_NOT_ALLOWED', addressMessage(refusal.reason), { reason: refusal.reason });
    const address = destinationAddress(body.rail, body.address);
    if (!address.ok) throw cashoutError('CASHOUT_ADDRESS_NOT_ALLOWED', addressMessage(address.reason), { reason: address.reason });
    return {
      kind: 'CRYPTO',
      rail: body.rail,
      destination: {
        chainId: Number(body.rail.slice(body.rail.indexOf('_') + 1)),
        tokenAddress: token.address,
        symbol: token.symbol,
        decimals: token.decimals,
        address: address.address,
        sentTo: address.sentTo,
      },
    };
  }
  const payeeId = payeeIdOn(body.rail, body.payeeHandle);
  if (payeeId === null) throw cashoutError('CASHOUT_PAYEE_HANDLE_INVALID', `That is not a ${body.rail} account: it must be ${handleRuleOf(body.rail)}`);
  let paypalEmail: string | null = null;
  if (body.rail === 'paypal') {
    paypalEmail = payeeIdAs('email', body.paypalEmail);
    if (paypalEmail === null) throw cashoutError('CASHOUT_PAYPAL_EMAIL_INVALID', 'That PayPal e-mail is not an e-mail address');
    // PayPal pays only an account already set up: its e-mail is the payee a buyer's proof names.
    if (!checks.payees) throw cashoutError('CASHOUT_PAYEE_UNAVAILABLE', 'PayPal accounts cannot be checked on this node now');
    let registered: Awaited<ReturnType<PayeeDirectory['lookup']>>;
    try {
      registered = await checks.payees.lookup('paypal', idHash(paypalEmail));
    } catch (error) {
      throw cashoutError('CASHOUT_PAYEE_UNAVAILABLE', 'PayPal accounts cannot be checked just now: try again', null, error);
    }
    if (registered === null) throw cashoutError('CASHOUT_PAYEE_NOT_REGISTERED', 'That PayPal account is not set up to be paid yet');
    if (paypalEmail !== payeeId) throw cashoutError('CASHOUT_PAYPAL_EMAIL_MISMATCH', 'The PayPal e-mail does not match the PayPal account');
  }
  return {
    kind: 'FIAT',
    rail: body.rail,
    handle: body.payeeHandle,
    payeeId,
    currency: 'currency' in body ? body.currency : 'USD',
    paypalEmail,
    connection: fiatConnectionOf(body.rail),
  };
}

function addressMessage(reason: string): string {
  switch (reason) {
    case 'ZERO':
      return 'That address burns whatever is sent to it';
    case 'OWN_WALLET':
      return 'That is the wallet the payout is already in: give an address of your own elsewhere';
    case 'ESCROW':
      return 'That is the escrow’s address, not yours';
    case 'TOKEN':
      return 'That is a token’s contract: anything sent there is lost';
    default:
      return 'That is not an address on this network';
  }
}
