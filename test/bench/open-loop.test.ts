import test from 'ava';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openLoop } from './open-loop.js';

async function serve(t: import('ava').ExecutionContext, listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

test('sends the rate asked for the time asked, each request once, with its body', async (t) => {
  const bodies: string[] = [];
  const url = await serve(t, (request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      bodies.push(body);
      response.end('{}');
    });
  });
  const sample = await openLoop({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' }, 100, 0.5);
  t.is(bodies.length, 50);
  t.true(bodies.every((body) => body === '{"n":1}'));
  t.is(sample.rate, 100);
  // Fifty requests due over half a second cannot all be answered much sooner than that.
  t.true(sample.answeredPerSecond <= 110, `answered at ${sample.answeredPerSecond} a second`);
  t.true(sample.p50Ms <= sample.p90Ms && sample.p90Ms <= sample.p99Ms && sample.p99Ms <= sample.maxMs);
});

test('a stall of the server is the latency of every request due during it, timed from when each was due', async (t) => {
  let answered = 0;
  const url = await serve(t, (_request, response) => {
    // The tenth request holds the server's only thread for 200 ms, as a long garbage collection would.
    if (++answered === 10) {
      const until = performance.now() + 200;
      while (performance.now() < until);
    }
    response.end('{}');
  });
  const sample = await openLoop({ url, method: 'GET', headers: {} }, 100, 0.6);
  t.is(answered, 60);
  // The request due right after the stalled one waited out nearly all of it; a closed loop would have sent none meanwhile.
  t.true(sample.maxMs >= 180, `the longest wait was ${sample.maxMs} ms`);
  // About twenty requests fell due during the stall, a third of the sixty: the 90th percentile is among them.
  t.true(sample.p90Ms >= 50, `p90 was ${sample.p90Ms} ms`);
});

test('an answer that is not a 2xx fails the run', async (t) => {
  const url = await serve(t, (_request, response) => {
    response.statusCode = 503;
    response.end('{}');
  });
  await t.throwsAsync(openLoop({ url, method: 'GET', headers: {} }, 50, 0.1), { message: /503/ });
});
