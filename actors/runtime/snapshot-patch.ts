/**
 * A change between two codec values (persisted snapshots), as small as the change:
 * an object is edited key by key, anything else (a scalar, an array) is replaced
 * whole. A turn record keeps the patch from the snapshot its turn left back to the
 * one it found, so the history holds what changed rather than a copy of the snapshot,
 * and the snapshot after any kept turn is the document's own walked back (actors/history).
 */
import type { Encoded } from '../codec.js';

export type SnapshotPatch =
  /** The value becomes `set`. */
  | { set: Encoded }
  /** The object keeps its other keys; each of `keys` is patched, each of `drop` removed. */
  | { keys: { [key: string]: SnapshotPatch }; drop?: string[] };

type EncodedObject = { [key: string]: Encoded };

const isObject = (value: Encoded): value is EncodedObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The patch that turns `from` into `to`; null when they are equal. */
export function diff(from: Encoded, to: Encoded): SnapshotPatch | null {
  if (isObject(from) && isObject(to)) {
    const keys: [string, SnapshotPatch][] = [];
    for (const key of Object.keys(to)) {
      if (!Object.hasOwn(from, key)) keys.push([key, { set: to[key]! }]);
      else {
        const inner = diff(from[key]!, to[key]!);
        if (inner) keys.push([key, inner]);
      }
    }
    const drop = Object.keys(from).filter((key) => !Object.hasOwn(to, key));
    if (keys.length === 0 && drop.length === 0) return null;
    // Object.fromEntries defines keys as data, so a key named `__proto__` stays a key.
    return drop.length ? { keys: Object.fromEntries(keys), drop } : { keys: Object.fromEntries(keys) };
  }
  return equal(from, to) ? null : { set: to };
}

/** `value` with `patch` applied; `value` itself is left as it was. */
export function applyPatch(value: Encoded, patch: SnapshotPatch): Encoded {
  if ('set' in patch) return patch.set;
  if (!isObject(value)) throw new Error('A snapshot patch edits the keys of a value that is not an object');
  const dropped = new Set(patch.drop);
  const entries: [string, Encoded][] = Object.entries(value)
    .filter(([key]) => !dropped.has(key))
    .map(([key, inner]) => [key, Object.hasOwn(patch.keys, key) ? applyPatch(inner, patch.keys[key]!) : inner]);
  for (const [key, inner] of Object.entries(patch.keys)) if (!Object.hasOwn(value, key)) entries.push([key, applyPatch(null, inner)]);
  return Object.fromEntries(entries);
}

function equal(a: Encoded, b: Encoded): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => equal(item, b[index]!));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && equal(a[key]!, b[key]!));
  }
  return false;
}
