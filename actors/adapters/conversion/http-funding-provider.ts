/**
 * The funding side of the conversion provider over HTTP, in the wire form docs/payouts.md
 * gives (the local simulator serves it; a Relay adapter would translate to it): amounts are
 * integer strings of base units.
 *
 * Failures are sorted as provider-http.ts says, the retryable ones as FundingProviderUnavailable.
 */
import { z } from 'zod';
import { FundingProviderUnavailable, type FundingActivity, type FundingProvider, type FundingQuote, type FundingRequest } from './funding-provider.js';
import { ProviderHttp, type ProviderHttpOptions } from './provider-http.js';

const units = z
  .string()
  .regex(/^\d{1,78}$/)
  .transform(BigInt);
/** An EVM address, or a Bitcoin address (bech32 or legacy base58). */
const depositAddress = z.string().regex(/^(?:0x[0-9a-fA-F]{40}|bc1[02-9ac-hj-np-z]{8,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/);
/** An EVM transaction hash, or a Bitcoin txid (64 hex digits without 0x). */
const transactionHash = z.string().regex(/^(?:0x)?[0-9a-fA-F]{64}$/);

const quoteAnswer = z.object({
  requestId: z.string().min(1).max(128),
  depositAddress,
  originAmount: units,
  originDecimals: z.number().int().min(0).max(36),
  destinationAmount: units,
});

const activityAnswer = z.object({
  requestId: z.string().min(1).max(128),
  depositAddress,
  transfers: z.array(
    z.object({
      id: z.string().min(1).max(200),
      status: z.enum(['seen', 'converting', 'delivered', 'refunded', 'failed']),
      originAmount: units,
      startedAt: z.iso.datetime({ offset: true }),
      swept: z.boolean(),
      sourceTransactionHash: transactionHash.nullable(),
      destinationTransactionHashes: z.array(transactionHash),
      refundTransactionHash: transactionHash.nullable(),
    }),
  ),
});

export type HttpFundingProviderOptions = ProviderHttpOptions;

export class HttpFundingProvider implements FundingProvider {
  readonly #http: ProviderHttp;

  constructor(options: HttpFundingProviderOptions) {
    this.#http = new ProviderHttp(options, (message, errorOptions) => new FundingProviderUnavailable(message, errorOptions));
  }

  async openFunding(request: FundingRequest): Promise<FundingQuote> {
    const body = { ...request, amount: request.amount.toString(), tradeType: 'EXACT_OUTPUT' };
    return this.#http.parse(quoteAnswer, await this.#http.call('POST', '/funding', body), 'POST /funding');
  }

  async activity(requestId: string): Promise<FundingActivity> {
    const path = `/funding/${encodeURIComponent(requestId)}`;
    const activity = this.#http.parse(activityAnswer, await this.#http.call('GET', path), `GET ${path}`);
    if (activity.requestId !== requestId) throw new FundingProviderUnavailable(`the conversion provider answered GET ${path} about another request`);
    return activity;
  }
}
