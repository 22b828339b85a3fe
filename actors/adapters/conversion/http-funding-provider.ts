/**
 * The funding side of the conversion provider over HTTP, in the wire form docs/payouts.md
 * gives (the local simulator serves it; a Relay adapter would translate to it): amounts are
 * integer strings of base units.
 *
 * Failures are sorted for the payout: a 4xx answer carrying a `code` is the provider refusing
 * the request as asked (ConversionRefused); a timeout, a connection that fails, a 5xx, a 408
 * or 429, a 4xx without a code, or an answer that does not parse is FundingProviderUnavailable,
 * since asking again later may succeed. The API key travels in a header only, never in a
 * message or a log line.
 */
import { z } from 'zod';
import { ConversionRefused } from './conversion-provider.js';
import { FundingProviderUnavailable, type FundingActivity, type FundingProvider, type FundingQuote, type FundingRequest } from './funding-provider.js';

/** The header the key is sent in, as Relay takes it. */
const FUNDING_API_KEY_HEADER = 'x-api-key';

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

/** Statuses a provider answers when asking again later may succeed, whatever the body says. */
const RETRYABLE_4XX = new Set([408, 429]);
const MAX_MESSAGE = 500;

export interface HttpFundingProviderOptions {
  url: string;
  timeoutMs: number;
  /** Sent as the x-api-key header when set. */
  apiKey?: string;
}

export class HttpFundingProvider implements FundingProvider {
  constructor(private readonly options: HttpFundingProviderOptions) {}

  async openFunding(request: FundingRequest): Promise<FundingQuote> {
    const body = { ...request, amount: request.amount.toString(), tradeType: 'EXACT_OUTPUT' };
    return this.#parse(quoteAnswer, await this.#call('POST', '/funding', body), 'POST /funding');
  }

  async activity(requestId: string): Promise<FundingActivity> {
    const path = `/funding/${encodeURIComponent(requestId)}`;
    const activity = this.#parse(activityAnswer, await this.#call('GET', path), `GET ${path}`);
    if (activity.requestId !== requestId) throw new FundingProviderUnavailable(`the conversion provider answered GET ${path} about another request`);
    return activity;
  }

  #parse<T extends z.ZodType>(schema: T, answer: unknown, what: string): z.output<T> {
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw new FundingProviderUnavailable(`the conversion provider's answer to ${what} does not parse: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  async #call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.apiKey) headers[FUNDING_API_KEY_HEADER] = this.options.apiKey;
    let status: number;
    let text: string;
    try {
      // One deadline for the whole exchange: the body is read under the same signal.
      const response = await fetch(new URL(path, this.options.url), {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `within ${this.options.timeoutMs} ms` : `(${(error as Error).message})`;
      throw new FundingProviderUnavailable(`the conversion provider did not answer ${method} ${path} ${reason}`, { cause: error });
    }
    const answer = parseJson(text);
    if (status >= 400 && status < 500 && !RETRYABLE_4XX.has(status) && typeof answer?.code === 'string' && answer.code !== '') {
      const message = typeof answer.message === 'string' ? answer.message.slice(0, MAX_MESSAGE) : `refused with ${status}`;
      throw new ConversionRefused(answer.code, message);
    }
    if (status < 200 || status >= 300) throw new FundingProviderUnavailable(`the conversion provider answered ${method} ${path} with ${status}`);
    return answer;
  }
}

function parseJson(text: string): { code?: unknown; message?: unknown } | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as { code?: unknown; message?: unknown }) : null;
  } catch {
    return null;
  }
}
