/**
 * Sorted finds answered by walking an ordered index, the way MongoDB uses a compound
 * index: equality on the index's leading fields picks a span, and when the sort
 * continues with the next fields the span is already in sort order, so a page costs
 * the documents it reads rather than a sort of every match.
 */
import type { Filter, SortSpec } from '../store.js';
import { bySeq, type Entry } from './entry.js';
import { numberRange } from './number-range.js';
import { sameKeys, type OrderedIndex, type Span } from './ordered-index.js';
import { isPlainObject, isPlainScalar, type Doc } from './paths.js';
import { sortDocuments } from './sort-order.js';

export interface SortedScan {
  readonly span: Span;
  /** Walk the span backwards: the sort runs against the index's directions. */
  readonly reverse: boolean;
  /** Index fields `from` up to, not including, `to` are the sort's leading fields; rows equal on them tie. */
  readonly from: number;
  readonly to: number;
  /** The sort's remaining fields, which order tied rows. */
  readonly tieBreak: SortSpec;
}

/**
 * The fields a filter pins to one string, number or boolean (`field: v` or `field:
 * {$eq: v}`), with their values. For a document in a usable ordered index such a
 * condition holds exactly when the field's key compares equal to the value.
 */
export function pinnedFields(filter: Filter): Map<string, unknown> {
  const pinned = new Map<string, unknown>();
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$')) continue;
    const value = isPlainObject(condition) && Object.keys(condition).length === 1 && '$eq' in condition ? condition.$eq : condition;
    if (isPlainScalar(value) || value === null) pinned.set(field, value);
  }
  return pinned;
}

/** The pinned values of the index's leading fields, as many as are pinned in a row. */
export function pinnedPrefix(index: Pick<OrderedIndex, 'fields'>, pinned: ReadonlyMap<string, unknown>): unknown[] {
  const values: unknown[] = [];
  for (const field of index.fields) {
    if (!pinned.has(field)) break;
    values.push(pinned.get(field));
  }
  return values;
}

/**
 * The scan with the smallest span among the indexes that can give `sort`'s order, or
 * null when none can. A numeric range in `filter` on the first field the sort follows
 * narrows the span to the run in range, which is still in that order.
 */
export function planSortedScan(indexes: Iterable<OrderedIndex>, pinned: ReadonlyMap<string, unknown>, sort: SortSpec, filter: Filter): SortedScan | null {
  let best: SortedScan | null = null;
  for (const index of indexes) {
    const scan = planFor(index, pinned, sort, filter);
    if (scan && (!best || scan.span.size < best.span.size)) best = scan;
  }
  return best;
}

/** How a sort can follow an index (both engines' walks): the pinned prefix, the sort fields it gives in order, the direction, the rest. */
export interface SortFollowing {
  prefix: unknown[];
  /** The sort's fields the index gives in order, after the prefix. */
  followed: [string, 1 | -1][];
  reverse: boolean;
  /** The sort's remaining fields, which order rows tied on the followed ones. */
  tieBreak: SortSpec;
}

/** Null when the index gives none of the sort's order after the pinned prefix. */
export function sortFollowing(index: Pick<OrderedIndex, 'fields' | 'directions'>, pinned: ReadonlyMap<string, unknown>, sort: SortSpec): SortFollowing | null {
  const prefix = pinnedPrefix(index, pinned);
  // Every match holds a pinned index field's value (no arrays in a usable index), so sorting on it is a no-op.
  const fields = Object.entries(sort).filter(([field]) => !(pinned.has(field) && index.fields.includes(field)));
  let followed = 0;
  let sign = 0;
  for (const [field, direction] of fields) {
    const at = prefix.length + followed;
    if (index.fields[at] !== field) break;
    const relative = direction * index.directions[at]!;
    if (sign !== 0 && relative !== sign) break;
    sign = relative;
    followed++;
  }
  if (followed === 0) return null;
  return { prefix, followed: fields.slice(0, followed) as [string, 1 | -1][], reverse: sign < 0, tieBreak: Object.fromEntries(fields.slice(followed)) };
}

function planFor(index: OrderedIndex, pinned: ReadonlyMap<string, unknown>, sort: SortSpec, filter: Filter): SortedScan | null {
  if (!index.usable) return null;
  const following = sortFollowing(index, pinned, sort);
  if (!following) return null;
  const { prefix, followed, reverse, tieBreak } = following;
  const range = numberRange(filter[index.fields[prefix.length]!]);
  return {
    span: range ? index.spanInRange(prefix, range) : index.span(prefix),
    reverse,
    from: prefix.length,
    to: prefix.length + followed.length,
    tieBreak,
  };
}

/**
 * The documents of the span that pass `test`, in the order a full sort gives them. The
 * span is in order on the followed fields; each run of rows tied on them is put in
 * order before it is yielded, so a caller that stops early has read one run past its page.
 */
export function* sortedMatches(scan: SortedScan, test: (doc: Doc) => boolean): Generator<Doc> {
  let run: Entry[] = [];
  let previous: readonly unknown[] | undefined;
  for (const { keys, entry } of scan.span.rows(scan.reverse)) {
    if (previous && !sameKeys(previous, keys, scan.from, scan.to)) {
      yield* orderTies(run, scan.tieBreak);
      run = [];
    }
    previous = keys;
    if (test(entry.doc)) run.push(entry);
  }
  yield* orderTies(run, scan.tieBreak);
}

/** Tied entries as a stable full sort leaves them: by the remaining sort fields, then in natural order. */
function orderTies(run: Entry[], tieBreak: SortSpec): Doc[] {
  const docs = run.sort(bySeq).map((entry) => entry.doc);
  return docs.length > 1 && Object.keys(tieBreak).length > 0 ? sortDocuments(docs, tieBreak) : docs;
}
