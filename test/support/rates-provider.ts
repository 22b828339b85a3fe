/** A loopback conversion provider (what RATES_URL points at) whose answer a test sets. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';

export interface RatesProvider {
  url: string;
  requests: IncomingMessage[];
  answer(handler: (response: ServerResponse) => void): void;
}

export function json(response: ServerResponse, body: unknown): void {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(body));
}

/** A provider answering `rates` (USD-based) until the test sets another answer; closed when the test ends. */
export async function ratesProvider(t: ExecutionContext, rates: Record<string, string | number>): Promise<RatesProvider> {
  const requests: IncomingMessage[] = [];
  let handler: (response: ServerResponse) => void = (response) => json(response, { base: 'USD', rates });
  const server = createServer((request, response) => {
    requests.push(request);
    handler(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/usd`, requests, answer: (next) => void (handler = next) };
}

/** The provider failing as a down service does: 503 and no body. */
export function unavailable(response: ServerResponse): void {
  response.statusCode = 503;
  response.end();
}
