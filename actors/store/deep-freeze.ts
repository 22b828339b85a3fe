/**
 * Freezes a value and everything in it, so a change to any part throws where it is made.
 * A frozen part is not walked again: a turn's document shares most of its parts with the
 * one before, so only what the turn built is frozen. The embedded store freezes what the
 * runtime hands it under the tests (store.ts, WriteOptions); the gateway freezes the
 * merchant accounts every request shares.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
