import test from 'ava';
import { InvalidCidrError, canonicalCidrList, ipAllowed, parseIp } from '../../gateway/auth/cidr.js';

test('entries are canonicalised to network address and prefix', (t) => {
  const table: Array<[string, string]> = [
    ['10.0.0.7/8', '10.0.0.0/8'],
    ['192.168.1.77/24', '192.168.1.0/24'],
    ['203.0.113.7', '203.0.113.7/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    [' 10.1.2.3/16 ', '10.1.0.0/16'],
    ['2001:DB8::/32', '2001:db8::/32'],
    ['2001:db8:0:0:0:0:0:1', '2001:db8::1/128'],
    ['2001:db8:abcd:12ff::1/56', '2001:db8:abcd:1200::/56'],
    ['::/0', '::/0'],
    ['::1', '::1/128'],
    ['::ffff:10.1.2.3/104', '10.0.0.0/8'],
    ['::ffff:203.0.113.7', '203.0.113.7/32'],
  ];
  for (const [entry, canonical] of table) t.deepEqual(canonicalCidrList([entry]), [canonical], entry);
});

test('equal ranges written differently collapse to one, in first-seen order', (t) => {
  t.deepEqual(canonicalCidrList(['10.9.9.9/8', '2001:db8::/32', '10.0.0.0/8', '2001:DB8:0::/32', '203.0.113.7', '203.0.113.7/32']), [
    '10.0.0.0/8',
    '2001:db8::/32',
    '203.0.113.7/32',
  ]);
  t.deepEqual(canonicalCidrList([]), []);
});

test('bad entries are rejected together in one typed error', (t) => {
  const bad = ['10.0.0.0/33', 'nonsense', '::1/129', '010.0.0.1', '10.1/8', '10', '1.2.3.4:80', 'fe80::1%eth0/64', '10.0.0.0/8/8', ''];
  const error = t.throws(() => canonicalCidrList(['10.0.0.0/8', ...bad, '::1']), { instanceOf: InvalidCidrError });
  t.deepEqual(error?.entries, bad);
  t.is(error?.message, `not an IPv4 or IPv6 address or CIDR: ${bad.join(', ')}`);
});

test('an empty allowlist lets every address in', (t) => {
  for (const ip of ['203.0.113.1', '2001:db8::1', '::ffff:10.0.0.1']) t.true(ipAllowed(ip, []), ip);
});

test('IPv4 and IPv6 never match each other, except IPv4-mapped IPv6 which is IPv4', (t) => {
  const list = canonicalCidrList(['10.0.0.0/8', '2001:db8::/32']);
  const table: Array<[string, boolean]> = [
    ['10.200.0.1', true],
    ['11.0.0.1', false],
    ['::ffff:10.200.0.1', true],
    ['::ffff:11.0.0.1', false],
    ['2001:db8:1::1', true],
    ['2001:db9::1', false],
    ['::a00:1', false],
    ['not-an-ip', false],
  ];
  for (const [ip, allowed] of table) t.is(ipAllowed(ip, list), allowed, ip);
  t.false(ipAllowed('10.0.0.1', ['::/0']), 'all of IPv6 is not IPv4');
  t.false(ipAllowed('2001:db8::1', ['0.0.0.0/0']), 'all of IPv4 is not IPv6');
});

test('a stored entry that does not parse matches nothing, so a damaged list fails closed', (t) => {
  t.false(ipAllowed('10.0.0.1', ['garbage']));
  t.true(ipAllowed('10.0.0.1', ['garbage', '10.0.0.0/8']));
});

test('addresses parse strictly and print canonically', (t) => {
  t.is(parseIp('::FFFF:1.2.3.4')?.toString(), '1.2.3.4');
  t.is(parseIp('2001:0DB8::0001')?.toString(), '2001:db8::1');
  for (const text of ['010.0.0.1', '10', '0x0a.0.0.1', '1.2.3.4:80', '[::1]', '']) t.is(parseIp(text), undefined, text);
});
