import test from 'ava';
import { startTestGateway } from '../support/gateway.js';
import { rawExchange as exchange } from '../support/raw-http.js';

function parse(raw: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

test('what the HTTP parser refuses before any middleware runs is still answered in the envelope, and the connection closes', async (t) => {
  const gateway = await startTestGateway();
  try {
    const malformed = [400, 'Malformed HTTP request', 'MALFORMED_REQUEST'] as const;
    const cases: Array<[string, string, readonly [number, string, string]]> = [
      ['a header line without a colon', 'GET /v1/health-check HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n', malformed],
      ['a malformed request line', 'GET\r\n\r\n', malformed],
      ['a space inside the request target', 'GET /v1/health check HTTP/1.1\r\nHost: x\r\n\r\n', malformed],
      ['a bad Content-Length', 'POST /api/v1/orders HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n', malformed],
      ['bytes after a body-less request that are not a request', 'GET /v1/health-check HTTP/1.1\r\nHost: x\r\n\r\n{}', malformed],
      [
        'headers over 16 KB',
        `GET /v1/health-check HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`,
        [431, 'Request header fields too large', 'HEADERS_TOO_LARGE'],
      ],
      [
        'chunk extensions over 16 KB',
        `POST /api/v1/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'a'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
        [413, 'Request body too large', 'PAYLOAD_TOO_LARGE'],
      ],
    ];
    for (const [name, bytes, [status, message, errorCode]] of cases) {
      const raw = await exchange(gateway.url, bytes);
      // The well-formed request ahead of the stray bytes is answered first; the refusal is the last answer.
      const response = parse(raw.slice(raw.lastIndexOf('HTTP/1.1 ')));
      t.is(response.status, status, name);
      t.deepEqual(response.body, { success: false, message, responseObject: null, statusCode: status, errorCode }, name);
      t.regex(response.headers['content-type'] ?? '', /^application\/json/, name);
      t.is(response.headers.connection, 'close', name);
    }
    const healthy = await gateway.request('GET', '/v1/health-check');
    t.is(healthy.status, 200, 'the node serves on after refusing them');
  } finally {
    await gateway.stop();
  }
});

test('a HEAD the parser refuses is answered without a body, as every answer to HEAD is', async (t) => {
  const gateway = await startTestGateway();
  try {
    // Found by the fuzzer: a body after the head of a 431 to HEAD made the client fail to parse the answer at all.
    const raw = await exchange(gateway.url, `HEAD /v2/orderbook/table?currency=${'%F0%9F%98%80'.repeat(2_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const [head = '', body] = raw.split('\r\n\r\n');
    t.regex(head, /^HTTP\/1\.1 431 /);
    t.regex(head, /\r\nConnection: close(\r\n|$)/);
    t.is(body, '', 'nothing follows the head');
    const response = await fetch(`${gateway.url}/v2/orderbook/table?currency=${'%F0%9F%98%80'.repeat(2_000)}`, { method: 'HEAD' });
    t.is(response.status, 431, 'and an HTTP client reads it');
  } finally {
    await gateway.stop();
  }
});
