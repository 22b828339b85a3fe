/**
 * Pricing a crypto payout for the customer (document 2, payout-quote and send-to-address): USDC
 * on Base to the customer's own address is priced here, one for one, without the provider; any
 * other network or token is the conversion provider's, previewed without binding, or bound as a
 * strict exact-input quote with the customer's wallet as refund target, each confirm or
 * send-to-address taking a new one. A refusal or failure binds nothing and sends nothing.
 */
import { ConversionRefused } from '../../actors/adapters/conversion/conversion-provider.js';
import { PAYOUT_AMOUNT_TOO_LOW, PAYOUT_ROUTE_UNAVAILABLE, type PayoutBridgeProvider } from '../../actors/adapters/conversion/payout-bridge.js';
import { formatTokenAmount, formatUsdcCents } from '../../machines/money.js';
import { isBaseUsdc, type PayoutBridgeQuote } from '../../machines/payout/index.js';
import type { CryptoDestination, PayoutMethod } from '../../machines/payout/payout-methods.js';
import { ApiError } from '../envelope.js';
import { cashoutError, type CheckoutPayout } from './cashout-access.js';

export type CryptoMethod = Extract<PayoutMethod, { kind: 'CRYPTO' }>;

export interface CashoutBridgeDependencies {
  bridges: PayoutBridgeProvider | null;
  now: () => number;
}

/** Document 2's CashoutPayoutQuote. */
export interface CashoutPayoutQuote {
  destination: Omit<CryptoDestination, 'sentTo'>;
  usdcAmount: string;
  estimatedAmount: string;
  quotedAt: string;
}

const destinationOf = ({ sentTo: _, ...destination }: CryptoDestination) => destination;

/** What `usdc` base units sent to `method` would deliver now: USDC on Base one for one, the rest as the provider previews it. */
export async function previewQuote(deps: CashoutBridgeDependencies, method: CryptoMethod, usdc: bigint): Promise<CashoutPayoutQuote> {
  const quotedAt = new Date(deps.now()).toISOString();
  const { destination } = method;
  if (usdc === 0n) throw cashoutError('CASHOUT_PAYOUT_AMOUNT_TOO_LOW', 'There is nothing left to send');
  if (isBaseUsdc(method.rail, destination.tokenAddress))
    return { destination: destinationOf(destination), usdcAmount: formatUsdcCents(usdc), estimatedAmount: formatUsdcCents(usdc), quotedAt };
  const preview = await quoting(() => provider(deps).preview(routeOf(method, usdc)));
  if (preview.estimatedAmount === 0n) throw tooLow(destination);
  return {
    destination: destinationOf(destination),
    usdcAmount: formatUsdcCents(usdc),
    estimatedAmount: formatTokenAmount(preview.estimatedAmount, destination.decimals),
    quotedAt,
  };
}

/** A binding quote for `usdc` to `method`, refunded to the customer's wallet if it cannot be delivered; what the payout is asked to send. */
export async function bindQuote(deps: CashoutBridgeDependencies, payout: CheckoutPayout, method: CryptoMethod, usdc: bigint): Promise<PayoutBridgeQuote> {
  const quote = await quoting(() => provider(deps).bind({ ...routeOf(method, usdc), refundTo: payout.walletAddress as `0x${string}` }));
  if (quote.estimatedAmount === 0n) throw tooLow(method.destination);
  return {
    requestId: quote.requestId,
    provider: quote.provider,
    depositAddress: quote.depositAddress,
    usdcAmount: quote.usdcAmount.toString(),
    estimatedAmount: quote.estimatedAmount.toString(),
    quotedAt: new Date(deps.now()).toISOString(),
  };
}

const routeOf = (method: CryptoMethod, usdc: bigint) => ({
  usdcAmount: usdc,
  destinationChainId: method.destination.chainId,
  destinationTokenAddress: method.destination.tokenAddress,
  recipient: method.destination.address,
});

function provider(deps: CashoutBridgeDependencies): PayoutBridgeProvider {
  if (!deps.bridges) throw cashoutError('CASHOUT_PAYOUT_QUOTE_FAILED', 'Crypto payouts to other networks cannot be priced on this node');
  return deps.bridges;
}

const tooLow = (destination: CryptoDestination) =>
  cashoutError('CASHOUT_PAYOUT_AMOUNT_TOO_LOW', `This amount converts to nothing in ${destination.symbol}: choose another token or network`);

/** The provider's answer, its refusals in document 2's codes: its minimum and a missing route are the customer's to change, anything else a failure to retry. */
async function quoting<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (error instanceof ConversionRefused && error.code === PAYOUT_AMOUNT_TOO_LOW)
      throw cashoutError('CASHOUT_PAYOUT_AMOUNT_TOO_LOW', 'This amount is below what the provider sends to that network: choose another token or network');
    if (error instanceof ConversionRefused && error.code === PAYOUT_ROUTE_UNAVAILABLE)
      throw cashoutError('CASHOUT_PAYOUT_ROUTE_UNAVAILABLE', 'The provider cannot send to that network or token now: choose another');
    if (error instanceof ApiError) throw error;
    throw cashoutError('CASHOUT_PAYOUT_QUOTE_FAILED', 'The payout could not be priced just now: try again', null, error);
  }
}
