/**
 * The order search through the trigram index finds exactly what the plain rule finds:
 * the views of the merchant and environment whose lower-cased search text contains
 * the lower-cased term. Views are stored as the order kind writes them, over the
 * order kind's own indexes, beside views without grams (too many, or written before
 * grams existed).
 */
import test from 'ava';
import fc from 'fast-check';
import { actorCollectionSpec, EmbeddedStore, type Collection } from '../../actors/index.js';
import { orderKind } from '../../actors/kinds/index.js';
import { viewGrams } from '../../actors/kinds/search-grams.js';
import { searchFilter } from '../../gateway/orders/order-search.js';

/** Letters, JSON punctuation, regex metacharacters, case pairs and astral characters (two code units each). */
const unit = fc.constantFrom(
  'a',
  'b',
  'c',
  'A',
  'B',
  ' ',
  '"',
  ':',
  '.',
  '*',
  '+',
  '?',
  '\\',
  '(',
  ')',
  '[',
  '|',
  '$',
  '^',
  'é',
  'É',
  'ß',
  'İ',
  'Σ',
  '😀',
  '\ud83d',
);

interface View {
  merchantId: string;
  environment: string;
  searchText: string;
  searchGrams?: string[] | null;
}

/** A view as orderView writes it from `text`, or (legacy) one written before it kept grams. */
function view(merchantId: string, text: string, legacy = false): View {
  const searchText = text.toLowerCase();
  return legacy ? { merchantId, environment: 'LIVE', searchText } : { merchantId, environment: 'LIVE', searchText, searchGrams: viewGrams(searchText) };
}

async function orders(views: View[]): Promise<Collection> {
  const collection = await new EmbeddedStore().collection(actorCollectionSpec(orderKind.name, orderKind.viewIndexes));
  for (const [i, item] of views.entries()) await collection.insertOne({ _id: `ord_${i}`, view: item });
  return collection;
}

/** What the order list matches for merchant A: the plain substring rule, in the store's `_id` order (ord_10 before ord_8). */
function naive(views: View[], term: string): string[] {
  const needle = term.toLowerCase();
  return views.flatMap((item, i) => (item.merchantId === 'A' && item.searchText.includes(needle) ? [`ord_${i}`] : [])).sort();
}

async function searched(collection: Collection, term: string): Promise<string[]> {
  const found = await collection.find({ 'view.merchantId': 'A', 'view.environment': 'LIVE', ...searchFilter(term) }, { sort: { _id: 1 } });
  return found.map((doc) => doc._id);
}

const stored = fc.record({
  merchantId: fc.constantFrom('A', 'B'),
  text: fc.oneof(
    { weight: 8, arbitrary: fc.string({ unit, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 300, maxLength: 400 }) },
  ),
  legacy: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

test('search through the grams finds exactly what a substring test over every view finds', async (t) => {
  const scenario = fc.array(stored, { minLength: 1, maxLength: 25 }).chain((items) =>
    fc.tuple(
      fc.constant(items),
      fc.oneof(
        // A piece of one of the texts, in any case, so that most searches find something.
        fc.tuple(fc.nat(items.length - 1), fc.nat(), fc.integer({ min: 3, max: 12 }), fc.boolean()).map(([which, from, length, upper]) => {
          const text = items[which]!.text;
          const piece = text.slice(from % Math.max(text.length, 1), (from % Math.max(text.length, 1)) + length);
          return upper ? piece.toUpperCase() : piece;
        }),
        fc.string({ unit, minLength: 3, maxLength: 8 }),
      ),
    ),
  );
  await t.notThrowsAsync(
    fc.assert(
      fc.asyncProperty(scenario, async ([items, raw]) => {
        // listOrders trims the term and ignores one under 3 characters.
        const term = raw.trim();
        fc.pre(term.length >= 3);
        const views = items.map(({ merchantId, text, legacy }) => view(merchantId, text, legacy));
        const collection = await orders(views);
        const expected = naive(views, term);
        const [found, count] = [
          await searched(collection, term),
          await collection.count({ 'view.merchantId': 'A', 'view.environment': 'LIVE', ...searchFilter(term) }),
        ];
        if (found.join() !== expected.join() || count !== expected.length) t.log({ term, views, found, expected, count });
        return found.join() === expected.join() && count === expected.length;
      }),
      { numRuns: 400 },
    ),
  );
});

test("a search reads the views holding the term's grams, not every order of the merchant", async (t) => {
  const views = Array.from({ length: 20_000 }, (_, i) =>
    view('A', `ord_${String(i).padStart(24, '0')}\n{"sku":"mug","invoice":"inv-${String(i).padStart(5, '0')}"}`),
  );
  views.push(view('A', 'ord_legacy\n{"invoice":"inv-04242"}', true));
  const collection = await orders(views);
  let evaluated = 0;
  const counting = { $function: { body: () => ++evaluated > 0, args: [], lang: 'js' } };
  const filter = { $expr: counting, 'view.merchantId': 'A', 'view.environment': 'LIVE', ...searchFilter('INV-04242') };

  t.deepEqual(
    (await collection.find(filter, { sort: { _id: 1 } })).map((doc) => doc._id),
    ['ord_20000', 'ord_4242'],
  );
  t.true(evaluated < 50, `${evaluated} views read for 2 matches among 20,001`);

  evaluated = 0;
  t.is(await collection.count({ ...filter, ...searchFilter('mug') }), 20_000);
  t.is(evaluated, 20_001, 'a term every view holds reads them all, as it must to count them');
});
