/**
 * The conversion provider's bridges out of Base over HTTP, in the wire form docs/payout-checkout.md
 * gives ("Crypto through the provider"; the local simulator serves it, a Relay adapter would
 * translate to it): amounts are integer strings of base units, the origin is always USDC on the
 * settlement chain. Failures are sorted as provider-http.ts says, the retryable ones as
 * PayoutBridgeUnavailable.
 */
import { z } from 'zod';
import {
  PayoutBridgeUnavailable,
  type PayoutBridgeBinding,
  type PayoutBridgePreview,
  type PayoutBridgeProvider,
  type PayoutBridgeQuote,
  type PayoutBridgeRoute,
  type PayoutBridgeState,
} from './payout-bridge.js';
import { ProviderHttp, type ProviderHttpOptions } from './provider-http.js';

const units = z
  .string()
  .regex(/^\d{1,78}$/)
  .transform(BigInt);
const provider = z.enum(['ROUTEA', 'ROUTEB']);
const previewAnswer = z.object({ provider, estimatedAmount: units });
const quoteAnswer = z.object({
  requestId: z.string().min(1).max(128),
  provider,
  depositAddress: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .transform((value) => value as `0x${string}`),
  usdcAmount: units,
  estimatedAmount: units,
});
const stateAnswer = z.object({
  requestId: z.string().min(1).max(128),
  status: z.enum(['waiting', 'pending', 'success', 'refund']),
  deliveredAmount: units.nullable(),
  destinationTransactionHash: z.string().min(1).max(128).nullable(),
  refundTransactionHash: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/)
    .nullable(),
});

export interface HttpPayoutBridgeOptions extends ProviderHttpOptions {
  /** USDC on the settlement chain: what every bridge converts from. */
  origin: { chainId: number; usdc: `0x${string}` };
}

export class HttpPayoutBridge implements PayoutBridgeProvider {
  readonly #http: ProviderHttp;

  constructor(private readonly options: HttpPayoutBridgeOptions) {
    this.#http = new ProviderHttp(options, (message, errorOptions) => new PayoutBridgeUnavailable(message, errorOptions));
  }

  async preview(route: PayoutBridgeRoute): Promise<PayoutBridgePreview> {
    return this.#http.parse(previewAnswer, await this.#http.call('POST', '/payout-bridge/preview', this.#body(route)), 'POST /payout-bridge/preview');
  }

  async bind(binding: PayoutBridgeBinding): Promise<PayoutBridgeQuote> {
    const body = { ...this.#body(binding), refundTo: binding.refundTo };
    const quote = this.#http.parse(quoteAnswer, await this.#http.call('POST', '/payout-bridge/requests', body), 'POST /payout-bridge/requests');
    // Exact input: a binding that takes other than what was asked is not the quote the customer confirmed.
    if (quote.usdcAmount !== binding.usdcAmount)
      throw new PayoutBridgeUnavailable(`the conversion provider bound ${quote.usdcAmount} USDC base units where ${binding.usdcAmount} were asked`);
    return quote;
  }

  async status(requestId: string): Promise<PayoutBridgeState> {
    const path = `/payout-bridge/requests/${encodeURIComponent(requestId)}`;
    const state = this.#http.parse(stateAnswer, await this.#http.call('GET', path), `GET ${path}`);
    if (state.requestId !== requestId) throw new PayoutBridgeUnavailable(`the conversion provider answered GET ${path} about another request`);
    return state;
  }

  #body(route: PayoutBridgeRoute) {
    return {
      originChainId: this.options.origin.chainId,
      originTokenAddress: this.options.origin.usdc,
      amount: route.usdcAmount.toString(),
      destinationChainId: route.destinationChainId,
      destinationTokenAddress: route.destinationTokenAddress,
      recipient: route.recipient,
      tradeType: 'EXACT_INPUT',
    };
  }
}
