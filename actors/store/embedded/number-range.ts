/**
 * The numbers a field condition lets through, for an index walk: `$gt`, `$gte`, `$lt`
 * and `$lte` with a number only match numbers (MongoDB's and mingo's type bracketing:
 * `{$lte: 5}` matches neither null nor a string nor a date), so every match lies
 * between the bounds in an index of numbers. Other operators beside them only narrow
 * the matches further, and the filter itself still decides on each row.
 */
import { isPlainObject } from './paths.js';

/** Numbers from `lower` to `upper`, each bound in or out; ±Infinity for a side the condition leaves open. */
export interface NumberRange {
  lower: { value: number; inclusive: boolean };
  upper: { value: number; inclusive: boolean };
}

/** The range a condition confines matches to, or null when it has no numeric bound. */
export function numberRange(condition: unknown): NumberRange | null {
  if (!isPlainObject(condition)) return null;
  const range: NumberRange = { lower: { value: -Infinity, inclusive: true }, upper: { value: Infinity, inclusive: true } };
  let bounded = false;
  for (const [operator, value] of Object.entries(condition)) {
    if (typeof value !== 'number' || Number.isNaN(value)) continue;
    switch (operator) {
      case '$gt':
      case '$gte':
        if (value > range.lower.value || (value === range.lower.value && operator === '$gt')) range.lower = { value, inclusive: operator === '$gte' };
        bounded = true;
        break;
      case '$lt':
      case '$lte':
        if (value < range.upper.value || (value === range.upper.value && operator === '$lt')) range.upper = { value, inclusive: operator === '$lte' };
        bounded = true;
        break;
    }
  }
  return bounded ? range : null;
}
