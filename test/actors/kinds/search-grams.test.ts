import test from 'ava';
import fc from 'fast-check';
import { orderKind } from '../../../actors/kinds/index.js';
import { MAX_TERM_GRAMS, MAX_VIEW_GRAMS, termGrams, viewGrams } from '../../../actors/kinds/search-grams.js';
import { fixedOrderInput } from '../../support/order-input.js';
import { startTestSystem } from '../../support/test-node.js';

/** Letters, JSON punctuation, regex metacharacters, case pairs and astral characters (two code units each). */
const unit = fc.constantFrom('a', 'b', 'A', '"', ':', '.', '*', '\\', '(', '[', '$', '^', 'é', 'É', 'ß', 'İ', '\n', '😀', '😁', '\ud83d');

test("a view keeps its text's distinct trigrams, in the order they first occur", (t) => {
  t.deepEqual(viewGrams('abcabcd'), ['abc', 'bca', 'cab', 'bcd']);
  t.deepEqual(viewGrams('ab'), []);
  t.deepEqual(viewGrams('a😀'), ['a\ud83d\ude00'], 'grams are code units: an astral character is two');
});

test('a view whose text has more than MAX_VIEW_GRAMS distinct trigrams keeps none (null)', (t) => {
  const distinct = (count: number) => Array.from({ length: count }, (_, i) => String.fromCharCode(0x4e00 + i)).join('');
  t.is(viewGrams(distinct(MAX_VIEW_GRAMS + 2))?.length, MAX_VIEW_GRAMS, 'a text of n units has n - 2 trigrams');
  t.is(viewGrams(distinct(MAX_VIEW_GRAMS + 3)), null);
  t.is(viewGrams('ab'.repeat(10_000))?.length, 2, 'a long text of few distinct trigrams keeps them');
});

test('a term sends at most MAX_TERM_GRAMS of its trigrams, spread from its first to its last', (t) => {
  t.deepEqual(termGrams('abcab'), ['abc', 'bca', 'cab']);
  t.deepEqual(termGrams('ab'), []);
  const long = Array.from({ length: 40 }, (_, i) => String.fromCharCode(0x61 + (i % 26)) + String(i % 10)).join('');
  const grams = termGrams(long);
  t.is(grams.length, MAX_TERM_GRAMS);
  t.is(grams[0], long.slice(0, 3));
  t.is(grams.at(-1), long.slice(-3));
  t.true(grams.every((gram) => long.includes(gram)));
});

test("every text containing a term holds all of the term's grams", (t) => {
  const text = fc.string({ unit, minLength: 3, maxLength: 60 });
  const cut = fc.tuple(fc.nat(), fc.integer({ min: 3, max: 60 }));
  t.notThrows(() =>
    fc.assert(
      fc.property(text, cut, (body, [from, length]) => {
        const start = from % (body.length - 2);
        const term = body.slice(start, start + length);
        const held = new Set(viewGrams(body));
        return termGrams(term).every((gram) => held.has(gram));
      }),
      { numRuns: 2_000 },
    ),
  );
});

test("an order's view carries the grams of its search text, and turns keep them", async (t) => {
  const { system } = await startTestSystem({ kinds: [orderKind] });
  const order = (id: string) => ({ kind: 'order', id });
  await system.askAt(order('ord_fixed'), { type: 'CREATE', ...fixedOrderInput() });
  const { view } = (await system.documents('order').findOne({ _id: 'ord_fixed' }))!;
  t.deepEqual(view.searchGrams, viewGrams(view.searchText as string));
  t.true((view.searchGrams as string[]).includes('ada'));

  await system.askAt(order('ord_fixed'), { type: 'CANCEL', at: '2026-11-23T13:00:00.000Z' });
  const after = (await system.documents('order').findOne({ _id: 'ord_fixed' }))!.view;
  t.is(after.status, 'CANCELLED');
  t.deepEqual(after.searchGrams, view.searchGrams);

  const notes = { essay: Array.from({ length: 400 }, (_, i) => String.fromCharCode(0x4e00 + i)).join('') };
  await system.askAt(order('ord_long'), { type: 'CREATE', ...fixedOrderInput({ id: 'ord_long', notes }) });
  t.is((await system.documents('order').findOne({ _id: 'ord_long' }))!.view.searchGrams, null, 'notes this varied are searched by their text alone');
});
