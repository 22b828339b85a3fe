import { createHmac, timingSafeEqual } from 'node:crypto';
import test from 'ava';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { SIGNATURE_HEADER_NAMES, isWebhookSecret, newWebhookSecret, signatureHeaders } from '../../../actors/webhooks/signing.js';

/*
 * Verifiers written from the two specifications with node:crypto alone, so a mistake
 * shared by our signer and the standardwebhooks library cannot pass unnoticed.
 */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function peerSchemeAccepts(headers: Record<string, string>, body: string, secret: string): boolean {
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.from(`${headers['x-webhook-timestamp']}.${body}`, 'utf8'))
    .digest();
  return (headers['x-webhook-signature'] ?? '').split(',').some((hex) => /^[0-9a-f]{64}$/.test(hex) && sameBytes(Buffer.from(hex, 'hex'), expected));
}

function standardSchemeAccepts(headers: Record<string, string>, body: string, secret: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`, 'utf8'))
    .digest();
  return (headers['webhook-signature'] ?? '').split(' ').some((entry) => entry.startsWith('v1,') && sameBytes(Buffer.from(entry.slice(3), 'base64'), expected));
}

// The library refuses timestamps more than five minutes from its own clock.
const now = (): number => Math.floor(Date.now() / 1000);
// Non-ASCII on purpose: both schemes sign UTF-8 bytes, and a Latin-1 slip would show here.
const body = '{"type":"ORDER_PAID","data":{"orderId":"ord_1","note":"café €5"}}';

test('one secret: both schemes verify independently and with the library', (t) => {
  const secret = newWebhookSecret();
  const headers = signatureHeaders({ id: 'evt_1', timestamp: now(), body, secrets: [secret] });

  t.regex(headers['x-webhook-signature']!, /^[0-9a-f]{64}$/);
  t.regex(headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}=$/);
  t.is(headers['x-webhook-id'], 'evt_1');
  t.is(headers['webhook-id'], 'evt_1');
  t.is(headers['x-webhook-timestamp'], headers['webhook-timestamp']);
  t.true(peerSchemeAccepts(headers, body, secret));
  t.true(standardSchemeAccepts(headers, body, secret));
  t.notThrows(() => new Webhook(secret).verify(body, headers));
});

test('during a rotation each header lists both signatures, newest first, and either secret verifies', (t) => {
  const [newest, previous] = [newWebhookSecret(), newWebhookSecret()];
  const input = { id: 'evt_2', timestamp: now(), body };
  const headers = signatureHeaders({ ...input, secrets: [newest, previous] });
  const alone = (secret: string) => signatureHeaders({ ...input, secrets: [secret] });

  t.is(headers['x-webhook-signature'], `${alone(newest)['x-webhook-signature']},${alone(previous)['x-webhook-signature']}`);
  t.is(headers['webhook-signature'], `${alone(newest)['webhook-signature']} ${alone(previous)['webhook-signature']}`);
  for (const secret of [newest, previous]) {
    t.true(peerSchemeAccepts(headers, body, secret));
    t.true(standardSchemeAccepts(headers, body, secret));
    t.notThrows(() => new Webhook(secret).verify(body, headers));
  }
  const stranger = newWebhookSecret();
  t.false(peerSchemeAccepts(headers, body, stranger));
  t.false(standardSchemeAccepts(headers, body, stranger));
  t.throws(() => new Webhook(stranger).verify(body, headers), { instanceOf: WebhookVerificationError });
});

test('a tampered body, id or timestamp fails verification', (t) => {
  const secret = newWebhookSecret();
  const timestamp = now();
  const headers = signatureHeaders({ id: 'evt_3', timestamp, body, secrets: [secret] });
  const tampered = body.replace('€5', '€6');

  t.false(peerSchemeAccepts(headers, tampered, secret));
  t.false(standardSchemeAccepts(headers, tampered, secret));
  t.throws(() => new Webhook(secret).verify(tampered, headers), { instanceOf: WebhookVerificationError });

  const otherId = { ...headers, 'webhook-id': 'evt_4' };
  t.false(standardSchemeAccepts(otherId, body, secret));
  t.throws(() => new Webhook(secret).verify(body, otherId), { instanceOf: WebhookVerificationError });

  const later = String(timestamp + 1);
  t.false(peerSchemeAccepts({ ...headers, 'x-webhook-timestamp': later }, body, secret));
  t.false(standardSchemeAccepts({ ...headers, 'webhook-timestamp': later }, body, secret));
});

test('a new secret is whsec_ and the padded standard base64 of 24 random bytes', (t) => {
  const secrets = Array.from({ length: 50 }, newWebhookSecret);
  for (const secret of secrets) {
    t.regex(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    const bytes = Buffer.from(secret.slice(6), 'base64');
    t.is(bytes.length, 24);
    t.is(bytes.toString('base64'), secret.slice(6), 'round-trips, so the encoding is canonical');
    t.true(isWebhookSecret(secret));
  }
  t.is(new Set(secrets).size, secrets.length);
});

for (const text of [
  '',
  'whsec_',
  'AAECAwQFBgcICQoLDA0ODxAREhMUFRYX',
  'WHSEC_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX',
  'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRY',
  'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGA==',
  'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFR-_',
  ' whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX',
  'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX\n',
]) {
  test(`${JSON.stringify(text)} is not a webhook secret`, (t) => {
    t.false(isWebhookSecret(text));
  });
}

test('SIGNATURE_HEADER_NAMES are exactly the lower-case names signatureHeaders sets', (t) => {
  const headers = signatureHeaders({ id: 'evt_5', timestamp: 1, body: '', secrets: [newWebhookSecret()] });
  t.deepEqual([...SIGNATURE_HEADER_NAMES].sort(), Object.keys(headers).sort());
  for (const name of SIGNATURE_HEADER_NAMES) t.is(name, name.toLowerCase());
  t.true(Object.isFrozen(SIGNATURE_HEADER_NAMES));
});

test('inputs that cannot be signed are refused, without echoing a secret', (t) => {
  const secret = newWebhookSecret();
  const valid = { id: 'evt_6', timestamp: 1_795_000_000, body, secrets: [secret] };
  t.throws(() => signatureHeaders({ ...valid, secrets: [] }), { instanceOf: TypeError });
  t.throws(() => signatureHeaders({ ...valid, secrets: [secret, secret, secret] }), { instanceOf: TypeError });
  t.throws(() => signatureHeaders({ ...valid, timestamp: 1_795_000_000.5 }), { instanceOf: TypeError });
  t.throws(() => signatureHeaders({ ...valid, timestamp: -1 }), { instanceOf: TypeError });
  t.throws(() => signatureHeaders({ ...valid, id: 'evt 6' }), { instanceOf: TypeError });
  t.throws(() => signatureHeaders({ ...valid, id: 'evt_6\r\nx-evil: 1' }), { instanceOf: TypeError });
  const leaked = 'whsec_not-really-a-secret';
  const error = t.throws(() => signatureHeaders({ ...valid, secrets: [secret, leaked] }), { instanceOf: TypeError });
  t.false(error.message.includes(leaked));
  t.regex(error.message, /#2/);
});
