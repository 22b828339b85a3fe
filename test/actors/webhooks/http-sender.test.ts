/**
 * One webhook attempt against a real HTTP server on 127.0.0.1. Loopback only:
 * nothing here may reach another address.
 */
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RESPONSE_EXCERPT_BYTES, sendAttempt, type AttemptRequest } from '../../../actors/webhooks/http-sender.js';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

interface TestServer {
  url: string;
  received: Received[];
  connections: () => number;
  close: () => Promise<void>;
}

async function startServer(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<TestServer> {
  const received: Received[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      answer(req, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function attempt(url: string, overrides: Partial<AttemptRequest> = {}): AttemptRequest {
  return { url, headers: {}, body: '{}', timeoutMs: 2000, allowPrivate: true, requireHttps: false, ...overrides };
}

test('posts the body byte for byte with our headers and the caller’s', async (t) => {
  const server = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  t.teardown(server.close);
  const body = JSON.stringify({ type: 'payment.succeeded', note: 'café €' });

  const result = await sendAttempt(
    attempt(`${server.url}/hooks/peer?x=1`, {
      body,
      headers: { 'webhook-id': 'msg_1', 'webhook-signature': 'v1,abc', 'Content-Type': 'text/plain' },
    }),
  );

  t.like(result, { status: 200, responseExcerpt: 'ok', error: null, errorCode: null });
  t.true(result.durationMs >= 0);
  const [request] = server.received;
  t.is(server.received.length, 1);
  t.is(request?.method, 'POST');
  t.is(request?.url, '/hooks/peer?x=1');
  t.true(request?.body.equals(Buffer.from(body, 'utf8')));
  t.like(request?.headers, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': 'Peer-Webhooks/1',
    'webhook-id': 'msg_1',
    'webhook-signature': 'v1,abc',
  });
});

test('the response excerpt stops at 1024 bytes of a large body', async (t) => {
  const server = await startServer((_req, res) => res.end('a'.repeat(1_000_000)));
  t.teardown(server.close);

  const result = await sendAttempt(attempt(server.url));

  t.is(result.status, 200);
  t.is(RESPONSE_EXCERPT_BYTES, 1024);
  t.is(result.responseExcerpt, 'a'.repeat(1024));
});

test('a character cut at the excerpt limit is left out rather than garbled', async (t) => {
  const server = await startServer((_req, res) => res.end('€'.repeat(1000)));
  t.teardown(server.close);

  const result = await sendAttempt(attempt(server.url));

  // 341 three-byte characters fill 1023 bytes; the 342nd does not fit.
  t.is(result.responseExcerpt, '€'.repeat(341));
});

test('without private access a loopback URL is refused before any connection', async (t) => {
  const server = await startServer((_req, res) => res.end());
  t.teardown(server.close);

  const result = await sendAttempt(attempt(`${server.url}/hook`, { allowPrivate: false }));

  t.like(result, { status: null, errorCode: 'DESTINATION_FORBIDDEN', responseExcerpt: '' });
  t.regex(result.error ?? '', /127\.0\.0\.1 is a loopback address/);
  t.is(server.connections(), 0);
  t.is(server.received.length, 0);
});

test('a URL the policy refuses for its form is INVALID_URL', async (t) => {
  const result = await sendAttempt(attempt('http://127.0.0.1:1/hook', { requireHttps: true }));
  t.like(result, { status: null, errorCode: 'INVALID_URL', error: 'the scheme must be https' });

  const garbage = await sendAttempt(attempt('not a url', { allowPrivate: false }));
  t.like(garbage, { status: null, errorCode: 'INVALID_URL' });
});

test('a server that never answers times out after about timeoutMs', async (t) => {
  const server = await startServer(() => {});
  t.teardown(server.close);

  const result = await sendAttempt(attempt(server.url, { timeoutMs: 200 }));

  t.like(result, { status: null, errorCode: 'TIMEOUT', responseExcerpt: '' });
  t.regex(result.error ?? '', /200 ms/);
  t.true(result.durationMs >= 190 && result.durationMs < 1500, String(result.durationMs));
});

test('a body that stalls after the status keeps the status and what arrived', async (t) => {
  const server = await startServer((_req, res) => {
    res.writeHead(200);
    res.write('partial');
  });
  t.teardown(server.close);

  const result = await sendAttempt(attempt(server.url, { timeoutMs: 200 }));

  t.like(result, { status: 200, responseExcerpt: 'partial', error: null, errorCode: null });
  t.true(result.durationMs >= 190 && result.durationMs < 1500, String(result.durationMs));
});

for (const status of [500, 410]) {
  test(`a ${status} comes back as its status, not as an error`, async (t) => {
    const server = await startServer((_req, res) => res.writeHead(status).end(`status ${status}`));
    t.teardown(server.close);

    const result = await sendAttempt(attempt(server.url));

    t.like(result, { status, responseExcerpt: `status ${status}`, error: null, errorCode: null });
  });
}

test('a redirect is not followed', async (t) => {
  const server = await startServer((_req, res) => res.writeHead(302, { location: '/elsewhere' }).end());
  t.teardown(server.close);

  const result = await sendAttempt(attempt(`${server.url}/hook`));

  t.like(result, { status: 302, error: null });
  t.deepEqual(
    server.received.map((r) => r.url),
    ['/hook'],
  );
});

test('a closed port is CONNECTION_FAILED', async (t) => {
  const server = await startServer(() => {});
  await server.close();

  const result = await sendAttempt(attempt(server.url));

  t.like(result, { status: null, errorCode: 'CONNECTION_FAILED' });
  t.regex(result.error ?? '', /ECONNREFUSED/);
});

test('consecutive attempts to one destination reuse a kept-alive connection', async (t) => {
  const server = await startServer((_req, res) => res.end('ok'));
  t.teardown(server.close);

  for (let i = 0; i < 3; i++) t.is((await sendAttempt(attempt(server.url))).status, 200);

  t.is(server.received.length, 3);
  t.is(server.connections(), 1);
});
