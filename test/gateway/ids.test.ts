import test from 'ava';
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { derivedId, idPattern, newId } from '../../gateway/ids.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The definition: the 24 lowest base-62 digits of the HMAC read as one big-endian number, lowest first. */
function reference(secret: string, parts: string[]): string {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(`${part.length}:${part}`);
  let value = BigInt(`0x${mac.digest('hex')}`);
  let out = '';
  for (let i = 0; i < 24; i++) {
    out += ALPHABET[Number(value % 62n)];
    value /= 62n;
  }
  return out;
}

test('derived ids are the ones earlier releases derived, so a restart with the same ID_SECRET finds its orders', (t) => {
  t.is(derivedId('ord', 'a'.repeat(32), 'mer_1', 'LIVE', 'key-1'), 'ord_lNQzyIq6WxrhieWjo8ljPflr');
  t.is(derivedId('ord', 'secret', ''), 'ord_8N8HId5NU7wef1a7SgLZOTov');
  fc.assert(
    fc.property(
      fc.string({ minLength: 1 }),
      fc.array(fc.string()),
      (secret, parts) => derivedId('ord', secret, ...parts) === `ord_${reference(secret, parts)}`,
    ),
  );
});

test('random ids have the documented shape and do not repeat across pool refills', (t) => {
  const ids = Array.from({ length: 1_000 }, () => newId('ord'));
  t.true(ids.every((id) => idPattern('ord').test(id)));
  t.is(new Set(ids).size, ids.length);
});
