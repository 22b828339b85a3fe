import test from 'ava';
import { apiKeyHint, generateApiKey, hashApiKey } from '../../gateway/auth/api-keys.js';

test('keys carry their environment prefix and 32 random bytes in base64url', (t) => {
  for (const [environment, prefix] of [
    ['LIVE', 'pk_live_'],
    ['SANDBOX', 'pk_test_'],
  ] as const) {
    const key = generateApiKey(environment);
    t.true(key.startsWith(prefix), key);
    const secret = key.slice(prefix.length);
    t.regex(secret, /^[A-Za-z0-9_-]{43}$/);
    t.is(Buffer.from(secret, 'base64url').length, 32);
  }
});

test('keys do not repeat', (t) => {
  const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('LIVE')));
  t.is(keys.size, 1000);
});

test('the hash is SHA-256 hex of the whole key', (t) => {
  t.is(hashApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  const key = generateApiKey('SANDBOX');
  t.regex(hashApiKey(key), /^[0-9a-f]{64}$/);
  t.is(hashApiKey(key), hashApiKey(key));
  t.not(hashApiKey(key), hashApiKey(generateApiKey('SANDBOX')));
});

test('the hint shows the prefix and the last four characters only', (t) => {
  t.is(apiKeyHint('pk_live_abcdefghijklmnopqrstuvwxyza1B2'), 'pk_live_…a1B2');
  t.is(apiKeyHint('pk_test_abcdefghijklmnopqrstuvwxyzZ-_9'), 'pk_test_…Z-_9');
  const key = generateApiKey('LIVE');
  t.is(apiKeyHint(key), `pk_live_…${key.slice(-4)}`);
});
