import test from 'ava';
import { intersection, union } from '../../../../actors/store/embedded/candidates.js';
import type { Entry } from '../../../../actors/store/embedded/entry.js';

/** A posting set that counts its membership probes. */
class Watched extends Set<string> {
  probes = 0;
  override has(id: string): boolean {
    this.probes++;
    return super.has(id);
  }
}

const entryOf = (id: string): Entry => ({ seq: Number(id), doc: { _id: id } });
const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => String(from + i));

test('an intersection walks the smallest set and probes the others smallest first', (t) => {
  const common = new Watched(ids(0, 1_000));
  const middling = new Watched(ids(0, 100));
  const rare = new Watched(['5', '50', '500', '5000']);
  const candidates = intersection([common, rare, middling], entryOf);
  t.is(candidates.size, 4, 'the bound is the smallest set');
  t.deepEqual(
    [...candidates.entries()].map((entry) => entry.doc._id),
    ['5', '50'],
  );
  t.is(rare.probes, 0, 'the smallest set is walked, never probed');
  t.is(middling.probes, 4, 'each of its ids is probed in the next smallest');
  t.is(common.probes, 2, 'and only the survivors in the largest');
});

test('a union yields each entry once, however many branches hold it', (t) => {
  const byId = new Map(ids(0, 10).map((id) => [id, entryOf(id)]));
  const candidates = union([intersection([new Set(['1', '2', '3'])], (id) => byId.get(id)!), intersection([new Set(['3', '4'])], (id) => byId.get(id)!)]);
  t.is(candidates.size, 5, 'the bound is the sum of the branches');
  t.deepEqual([...candidates.entries()].map((entry) => entry.doc._id).sort(), ['1', '2', '3', '4']);
});
