/**
 * A conversion provider over HTTP, in the wire form docs/payments.md gives (the local
 * simulator serves it; a Relay adapter would translate to it): amounts are integer
 * strings of base units. A 4xx answer is the provider refusing the request as asked
 * (ConversionRefused, with its code); anything else failing is an outage, thrown as is.
 */
import { z } from 'zod';
import { ConversionRefused, type ConversionProvider, type ConversionQuote, type ConversionQuoteRequest, type ConversionState } from './conversion-provider.js';

const units = z
  .string()
  .regex(/^\d{1,78}$/)
  .transform(BigInt);
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

const quoteAnswer = z.object({
  requestId: z.string().min(1).max(128),
  depositAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  originToken: z.string(),
  originTokenAddress: z.string(),
  originDecimals: z.number().int().min(0).max(36),
  originAmount: units,
  destinationAmount: units,
  expiresAt: z.iso.datetime(),
});

const stateAnswer = z.object({
  requestId: z.string(),
  status: z.enum(['waiting', 'pending', 'delayed', 'success', 'failure', 'refund']),
  originAmountReceived: units.nullable(),
  sourceTransactionHash: hash.nullable(),
  destinationTransactionHashes: z.array(hash),
  message: z.string().nullable(),
});

export interface HttpConversionProviderOptions {
  url: string;
  timeoutMs: number;
}

export class HttpConversionProvider implements ConversionProvider {
  constructor(private readonly options: HttpConversionProviderOptions) {}

  async quote(request: ConversionQuoteRequest): Promise<ConversionQuote> {
    const body = {
      ...request,
      amount: request.amount.toString(),
      tradeType: 'EXACT_OUTPUT',
    };
    return quoteAnswer.parse(await this.#call('POST', '/quote', body));
  }

  async status(requestId: string): Promise<ConversionState> {
    return stateAnswer.parse(await this.#call('GET', `/requests/${encodeURIComponent(requestId)}`));
  }

  async cancel(requestId: string): Promise<ConversionState> {
    return stateAnswer.parse(await this.#call('POST', `/requests/${encodeURIComponent(requestId)}/cancel`));
  }

  async #call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(new URL(path, this.options.url), {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const answer = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
    if (response.status >= 400 && response.status < 500) {
      throw new ConversionRefused(
        typeof answer?.code === 'string' ? answer.code : `CONVERSION_${response.status}`,
        typeof answer?.message === 'string' ? answer.message : response.statusText,
      );
    }
    if (!response.ok || answer === null) throw new Error(`the conversion provider answered ${method} ${path} with ${response.status}`);
    return answer;
  }
}
