/**
 * A merchant's webhook receiver on loopback, for tests: it records every request (raw
 * body, headers, when) and answers what the test tells it, 200 by default. It can hold
 * requests unanswered (to kill a node while deliveries are in flight) and counts which
 * requests it actually answered: a response whose socket closed first was not.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it was answered with, once the answer was written out; null until then (or never). */
  answered: number | null;
}

export type Answer = number | { status: number; body?: string };

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides each answer; replace it any time. */
  respond: (request: ReceivedRequest) => Answer | Promise<Answer>;
  /** The parsed bodies of the requests answered 2xx, in arrival order. */
  delivered(): Array<{ id: string; type: string; data: any }>;
  /** Polls until `check` holds, or fails after `ms`. */
  until(check: () => boolean | Promise<boolean>, ms?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    requests: [],
    respond: () => 200,
    delivered: () => receiver.requests.filter((request) => request.answered !== null && request.answered < 300).map((request) => JSON.parse(request.body)),
    async until(check, ms = 10_000, what = 'the receiver to get what it waits for') {
      const deadline = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${receiver.requests.length} requests`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        answered: null,
      };
      receiver.requests.push(request);
      const answer = await receiver.respond(request);
      write(res, request, typeof answer === 'number' ? { status: answer } : answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

function write(res: ServerResponse, request: ReceivedRequest, answer: { status: number; body?: string }): void {
  if (res.socket?.destroyed) return;
  res.on('finish', () => {
    if (!res.socket?.destroyed) request.answered = answer.status;
  });
  res.writeHead(answer.status, { 'content-type': 'text/plain' });
  res.end(answer.body ?? 'ok');
}

/**
 * Both signature schemes checked from their definitions with node:crypto alone (not
 * the platform's signer): Peer's X-Webhook-Signature (hex HMAC-SHA256 keyed with the
 * secret's UTF-8 bytes over `${timestamp}.${body}`) and Standard Webhooks'
 * webhook-signature (`v1,` base64 HMAC-SHA256 keyed with the base64 after `whsec_`,
 * over `${id}.${timestamp}.${body}`). Each header may list several signatures (a
 * rotation); one must match.
 */
export function signaturesValid(request: Pick<ReceivedRequest, 'headers' | 'body'>, secret: string): { peer: boolean; standard: boolean } {
  const header = (name: string) => String(request.headers[name] ?? '');
  const timestamp = header('x-webhook-timestamp');
  const peerExpected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${request.body}`).digest();
  const peer = header('x-webhook-signature')
    .split(',')
    .some((hex) => /^[0-9a-f]{64}$/.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), peerExpected));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const standardExpected = createHmac('sha256', key)
    .update(`${header('webhook-id')}.${header('webhook-timestamp')}.${request.body}`)
    .digest();
  const standard = header('webhook-signature')
    .split(' ')
    .some((entry) => {
      const [version, signature] = entry.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === standardExpected.length && timingSafeEqual(given, standardExpected);
    });
  return { peer, standard };
}
