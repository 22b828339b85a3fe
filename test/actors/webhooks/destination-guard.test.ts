/**
 * Webhook destination rules. Everything here is parsing, resolution of `localhost`
 * and a server on 127.0.0.1 that must see no connection; nothing leaves loopback.
 */
import test from 'ava';
import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkWebhookUrl,
  ForbiddenDestinationError,
  forbiddenRange,
  guardedLookup,
  type DestinationPolicy,
} from '../../../actors/webhooks/destination-guard.js';

const live: DestinationPolicy = { requireHttps: true, allowPrivate: false };
const sandbox: DestinationPolicy = { requireHttps: false, allowPrivate: false };
const development: DestinationPolicy = { requireHttps: false, allowPrivate: true };

function reasonFor(url: string, policy: DestinationPolicy = live): string {
  const check = checkWebhookUrl(url, policy);
  if (check.ok) throw new Error(`${url} was accepted`);
  return check.reason;
}

test('public https URLs are accepted and returned parsed', (t) => {
  for (const url of ['https://hooks.example.com/peer?x=1', 'https://8.8.8.8/hook', 'https://[2606:4700:4700::1111]:8443/hook']) {
    const check = checkWebhookUrl(url, live);
    t.true(check.ok, url);
    if (check.ok) t.is(check.url.href, new URL(url).href);
  }
});

test('structural refusals say what is wrong', (t) => {
  t.regex(reasonFor('not a url'), /absolute URL/);
  t.regex(reasonFor('/relative/path'), /absolute URL/);
  t.regex(reasonFor('ftp://example.com/hook', sandbox), /scheme must be https or http/);
  t.regex(reasonFor('https://user:secret@example.com/hook'), /username or password/);
  t.regex(reasonFor('https://user@example.com/hook'), /username or password/);
  t.regex(reasonFor('https://example.com/hook#part'), /fragment/);
  t.regex(reasonFor('https://example.com/hook#'), /fragment/);
  t.regex(reasonFor('https://example.com:0/hook'), /port must be between 1 and 65535/);
  t.regex(reasonFor('https://example.com:65536/hook'), /absolute URL/);
  t.regex(reasonFor(`https://example.com/${'a'.repeat(2048)}`), /longer than 2048/);
});

test('http is refused when https is required and accepted otherwise', (t) => {
  t.regex(reasonFor('http://example.com/hook', live), /scheme must be https$/);
  t.true(checkWebhookUrl('http://example.com/hook', sandbox).ok);
});

for (const [url, range] of [
  ['https://127.0.0.1/', 'loopback'],
  ['https://127.1.2.3/', 'loopback'],
  ['https://[::1]/', 'loopback'],
  ['https://[::ffff:127.0.0.1]/', 'loopback'],
  ['https://169.254.169.254/latest/meta-data/', 'metadata'],
  ['https://[::ffff:169.254.169.254]/', 'metadata'],
  ['https://169.254.170.2/', 'metadata'],
  ['https://100.100.100.200/', 'metadata'],
  ['https://[fd00:ec2::254]/', 'metadata'],
  ['https://169.254.1.1/', 'linkLocal'],
  ['https://[fe80::1]/', 'linkLocal'],
  ['https://10.1.2.3/', 'private'],
  ['https://172.16.0.1/', 'private'],
  ['https://172.31.255.255/', 'private'],
  ['https://192.168.1.1/', 'private'],
  ['https://100.64.0.1/', 'carrierGradeNat'],
  ['https://[fd12:3456::1]/', 'uniqueLocal'],
  ['https://0.0.0.0/', 'unspecified'],
  ['https://[::]/', 'unspecified'],
  ['https://224.0.0.1/', 'multicast'],
  ['https://255.255.255.255/', 'broadcast'],
  ['https://[64:ff9b::a00:1]/', 'private'],
  ['https://[2002:7f00:1::]/', 'loopback'],
  ['https://[2001::1]/', 'teredo'],
  ['https://[::7f00:1]/', 'reserved'],
  // WHATWG URL rewrites these IPv4 spellings to 127.0.0.1 before we see the host.
  ['https://2130706433/', 'loopback'],
  ['https://0x7f.1/', 'loopback'],
  ['https://0177.0.0.1/', 'loopback'],
] as const) {
  test(`${url} is refused as ${range} unless private addresses are allowed`, (t) => {
    t.regex(reasonFor(url), new RegExp(`a ${range} address$`));
    t.true(checkWebhookUrl(url.replace('https:', 'http:'), development).ok);
  });
}

test('localhost names are loopback', (t) => {
  for (const url of ['https://localhost/', 'https://LOCALHOST:8443/', 'https://localhost./', 'https://foo.localhost/', 'https://a.b.localhost/']) {
    t.regex(reasonFor(url), /loopback name$/, url);
  }
  t.true(checkWebhookUrl('http://localhost:3000/hook', development).ok);
  t.true(checkWebhookUrl('https://localhost.example.com/', live).ok);
});

test('forbiddenRange names the range and is null for public unicast', (t) => {
  t.is(forbiddenRange('8.8.8.8'), null);
  t.is(forbiddenRange('2606:4700:4700::1111'), null);
  t.is(forbiddenRange('::ffff:8.8.8.8'), null);
  t.is(forbiddenRange('64:ff9b::808:808'), null);
  t.is(forbiddenRange('2002:808:808::1'), null);
  t.is(forbiddenRange('127.0.0.1'), 'loopback');
  t.is(forbiddenRange('fe80::1%eth0'), 'linkLocal');
  t.is(forbiddenRange('192.0.2.1'), 'reserved');
  t.is(forbiddenRange('168.63.129.16'), 'metadata');
});

test('forbiddenRange fails closed on anything that is not a strictly written address', (t) => {
  for (const text of ['0x7f.1', '2130706433', '127.1', '010.0.0.1', 'example.com', '']) {
    t.is(forbiddenRange(text), 'invalid', text);
  }
});

test('ForbiddenDestinationError carries a stable code and names host, address and range', (t) => {
  const error = new ForbiddenDestinationError('hooks.example.com', '10.0.0.5', 'private');
  t.is(error.code, 'WEBHOOK_DESTINATION_FORBIDDEN');
  t.is(error.message, 'webhook destination hooks.example.com resolves to 10.0.0.5, a private address');
});

function lookup(allowPrivate: boolean, hostname: string, options: dns.LookupOptions) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: string | dns.LookupAddress[]; family: number | undefined }>((resolve) => {
    guardedLookup(allowPrivate)(hostname, options, (error, address, family) => resolve({ error, address, family }));
  });
}

test('guardedLookup refuses a name that resolves to loopback, in both callback forms', async (t) => {
  for (const options of [{ all: true }, {}, { family: 4 }]) {
    const { error } = await lookup(false, 'localhost', options);
    t.true(error instanceof ForbiddenDestinationError, JSON.stringify(options));
    t.regex(error?.message ?? '', /^webhook destination localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
  }
});

test('guardedLookup answers in the form Node asked for when private addresses are allowed', async (t) => {
  const all = await lookup(true, 'localhost', { all: true });
  t.is(all.error, null);
  t.true(Array.isArray(all.address) && all.address.length > 0);

  const one = await lookup(true, 'localhost', { family: 4 });
  t.is(one.error, null);
  t.is(one.address, '127.0.0.1');
  t.is(one.family, 4);
});

for (const autoSelectFamily of [true, false]) {
  test(`Node's http client fails with the guard's error and never connects (autoSelectFamily ${autoSelectFamily})`, async (t) => {
    let connections = 0;
    const server = http.createServer((_req, res) => res.end());
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    const { port } = server.address() as AddressInfo;

    const error = await new Promise<Error>((resolve, reject) => {
      // http.request hands autoSelectFamily on to the socket; its types do not list it.
      const options: http.RequestOptions & { autoSelectFamily: boolean } = {
        host: 'localhost',
        port,
        agent: false,
        autoSelectFamily,
        lookup: guardedLookup(false),
      };
      const req = http.request(options);
      req.on('error', resolve);
      req.on('response', () => reject(new Error('the request reached the server')));
      req.end();
    });

    t.true(error instanceof ForbiddenDestinationError);
    t.is(connections, 0);
  });
}
