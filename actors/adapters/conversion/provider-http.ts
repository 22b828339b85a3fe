/**
 * One exchange with the conversion provider over HTTP, shared by its payout clients (funding
 * and bridges). Failures are sorted: a 4xx answer carrying a `code` is the provider refusing
 * the request as asked (ConversionRefused); a timeout, a connection that fails, a 5xx, a 408
 * or 429, a 4xx without a code, or an answer that does not parse is the client's own
 * "unavailable" error, since asking again later may succeed. The API key travels in a header
 * only, never in a message or a log line.
 */
import { z } from 'zod';
import { ConversionRefused } from './conversion-provider.js';

/** The header the key is sent in, as Relay takes it. */
const PROVIDER_API_KEY_HEADER = 'x-api-key';
/** Statuses a provider answers when asking again later may succeed, whatever the body says. */
const RETRYABLE_4XX = new Set([408, 429]);
const MAX_MESSAGE = 500;

export interface ProviderHttpOptions {
  url: string;
  timeoutMs: number;
  /** Sent as the x-api-key header when set. */
  apiKey?: string;
}

export class ProviderHttp {
  constructor(
    private readonly options: ProviderHttpOptions,
    private readonly unavailable: (message: string, options?: ErrorOptions) => Error,
  ) {}

  parse<T extends z.ZodType>(schema: T, answer: unknown, what: string): z.output<T> {
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw this.unavailable(`the conversion provider's answer to ${what} does not parse: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.apiKey) headers[PROVIDER_API_KEY_HEADER] = this.options.apiKey;
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
      throw this.unavailable(`the conversion provider did not answer ${method} ${path} ${reason}`, { cause: error });
    }
    const answer = parseJson(text);
    if (status >= 400 && status < 500 && !RETRYABLE_4XX.has(status) && typeof answer?.code === 'string' && answer.code !== '') {
      const message = typeof answer.message === 'string' ? answer.message.slice(0, MAX_MESSAGE) : `refused with ${status}`;
      throw new ConversionRefused(answer.code, message);
    }
    if (status < 200 || status >= 300) throw this.unavailable(`the conversion provider answered ${method} ${path} with ${status}`);
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
