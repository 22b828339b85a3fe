/** The one canonical JSON every fingerprint and stored metadata comparison uses. */
import test from 'ava';
import { canonicalJson } from '../../machines/canonical-json.js';

test('canonical JSON sorts every object’s keys, keeps arrays in order, and keeps keys that are prototypes’ names as data', (t) => {
  t.is(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 0 }], c: null } }), '{"a":{"c":null,"d":[2,{"y":0,"z":1}]},"b":1}');
  t.is(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":2}')), '{"__proto__":{"x":1},"a":2}');
});
