/**
 * Freezes a document handed off to the store (store.ts, WriteOptions): a change to it
 * afterwards would change stored state behind the store's back, so it throws instead.
 * A frozen part is not walked again: a turn's document shares most of its parts with
 * the one before, so only what the turn built is frozen.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) deepFreeze(record[key]);
  }
  return value;
}
