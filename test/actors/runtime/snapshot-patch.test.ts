import test from 'ava';
import type { Encoded } from '../../../actors/codec.js';
import { applyPatch, diff } from '../../../actors/runtime/snapshot-patch.js';

const pairs: Array<[string, Encoded, Encoded]> = [
  [
    'a changed scalar deep down',
    { value: 'OPEN', context: { total: { __bigint: '1' }, n: 1 } },
    { value: 'OPEN', context: { total: { __bigint: '3' }, n: 1 } },
  ],
  ['a key added and one dropped', { value: 'A', context: { gone: true, kept: 1 } }, { value: 'A', context: { kept: 1, added: [1, 2] } }],
  ['a state value from a name to an object', { value: 'OPEN' }, { value: { paying: 'waiting' } }],
  ['a changed array, replaced whole', { list: [1, 2, 3] }, { list: [1, 2] }],
  ['a key named __proto__ stays a key', { context: {} }, JSON.parse('{"context":{"__proto__":{"polluted":true}}}') as Encoded],
  ['null to an object and back', { x: null }, { x: { y: 1 } }],
];

for (const [name, from, to] of pairs) {
  test(`diff then apply gives the target both ways: ${name}`, (t) => {
    t.deepEqual(applyPatch(from, diff(from, to)!), to);
    t.deepEqual(applyPatch(to, diff(to, from)!), from);
    t.false(Object.hasOwn(Object.prototype, 'polluted'));
  });
}

test('equal values need no patch, and a patch holds only what changed', (t) => {
  const big = { value: 'OPEN', context: { notes: 'x'.repeat(1_000), total: { __bigint: '1' } } };
  t.is(diff(big, structuredClone(big)), null);
  const patch = diff(big, { ...big, context: { ...big.context, total: { __bigint: '2' } } });
  t.deepEqual(patch, { keys: { context: { keys: { total: { keys: { __bigint: { set: '2' } } } } } } });
  t.true(JSON.stringify(patch).length < 100);
});

test('applying leaves the value it starts from as it was', (t) => {
  const from = Object.freeze({ context: Object.freeze({ a: 1, b: 2 }) });
  const to = { context: { a: 1, c: 3 } };
  t.deepEqual(applyPatch(from, diff(from, to)!), to);
  t.deepEqual(from, { context: { a: 1, b: 2 } });
});
