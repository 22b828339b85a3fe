/**
 * The filters the embedded store meets most, tested without mingo: a turn's
 * `{_id, version}`, the order list's pinned fields, its search (a `$regex` on the
 * text, an `$or` of an `$all` on the grams and a null), and a partial index's
 * `$type: 'string'`. Compiling a mingo Query costs tens of microseconds, most of it
 * copying its operator table, and its `$all` reads the array through several layers
 * per value, which made a search that every order matches four times slower to count
 * than its `$regex` alone.
 *
 * Each test answers as mingo does for plain objects along a plain path. Where mingo's
 * own rules come in (an array or another kind of object along the way, arrays inside
 * the array at the end), it answers undefined and mingo decides the document.
 */
import type { Filter } from '../store.js';
import { isPlainObject, isPlainScalar, type Doc } from './paths.js';

/** Whether the document matches; undefined when mingo must decide. */
export type NativeTest = (doc: Doc) => boolean | undefined;
type LeafTest = (value: unknown) => boolean | undefined;

/** Marks a path that met something other than a plain object or nothing before its end. */
const MINGO = Symbol('mingo decides');

/** The filter's test, or null when one of its conditions is not one of those answered here. */
export function nativeFilter(filter: Filter): NativeTest | null {
  const tests: NativeTest[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    const test = field === '$or' ? anyOf(condition) : fieldTest(field, condition);
    if (!test) return null;
    tests.push(test);
  }
  return (doc) => {
    for (const test of tests) {
      const matched = test(doc);
      if (matched !== true) return matched;
    }
    return true;
  };
}

function anyOf(branches: unknown): NativeTest | null {
  if (!Array.isArray(branches)) return null;
  const tests: NativeTest[] = [];
  for (const branch of branches) {
    const test = isPlainObject(branch) ? nativeFilter(branch) : null;
    if (!test) return null;
    tests.push(test);
  }
  return (doc) => {
    let undecided = false;
    for (const test of tests) {
      const matched = test(doc);
      if (matched) return true;
      if (matched === undefined) undecided = true;
    }
    return undecided ? undefined : false;
  };
}

function fieldTest(field: string, condition: unknown): NativeTest | null {
  const path = plainPath(field);
  const leaf = path && leafTest(condition);
  if (!path || !leaf) return null;
  return (doc) => {
    const value = valueAt(doc, path);
    return value === MINGO ? undefined : leaf(value);
  };
}

/** How mingo tests the value at the end of a plain path (undefined when missing) against `condition`. */
function leafTest(condition: unknown): LeafTest | null {
  // Equality: the value itself, or an element of an array; arrays inside it are flattened by mingo's rules.
  if (isPlainScalar(condition)) return (value) => value === condition || (Array.isArray(value) ? flatIncludes(value, condition) : false);
  // Null: a missing field too.
  if (condition === null) return (value) => (Array.isArray(value) ? undefined : value === null || value === undefined);
  if (!isPlainObject(condition)) return null;
  const operators = Object.keys(condition);
  // `$all` of strings: every one is an element of the array (mingo compares elements only, never flattening).
  if (operators.length === 1 && Array.isArray(condition.$all) && condition.$all.length > 0 && condition.$all.every((item) => typeof item === 'string')) {
    const required = condition.$all as string[];
    return (value) => Array.isArray(value) && required.every((item) => value.includes(item));
  }
  // `$type: 'string'` (a partial index's filter, tested on every write): arrays are mingo's, which looks at their elements.
  if (operators.length === 1 && condition.$type === 'string') return (value) => (Array.isArray(value) ? undefined : typeof value === 'string');
  // `$regex` as a string, with options that keep no state between tests.
  const options = condition.$options;
  if (
    typeof condition.$regex === 'string' &&
    operators.every((key) => key === '$regex' || key === '$options') &&
    (options === undefined || (typeof options === 'string' && !/[gy]/.test(options)))
  ) {
    const pattern = regExp(condition.$regex, options);
    return pattern && ((value) => (Array.isArray(value) ? undefined : typeof value === 'string' && pattern.test(value)));
  }
  return null;
}

/** The expression, or null for an invalid one: mingo then decides, failing only once it has a document to test. */
function regExp(source: string, flags: string | undefined): RegExp | null {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/** Whether the array holds `item`; undefined when it holds arrays, which mingo may flatten into it. */
function flatIncludes(values: readonly unknown[], item: unknown): boolean | undefined {
  if (values.includes(item)) return true;
  return values.some(Array.isArray) ? undefined : false;
}

/** The segments of a dotted path of plain field names, or null for anything mingo must read (operators, positions). */
function plainPath(field: string): string[] | null {
  const segments = field.split('.');
  return segments.every((segment) => /^[^$\d][^$]*$/.test(segment) && segment !== '__proto__') ? segments : null;
}

/** The value at the end of `path` through plain objects, undefined when one is missing, MINGO when anything else lies along the way. */
function valueAt(doc: Doc, path: readonly string[]): unknown {
  let current: unknown = doc;
  for (const segment of path) {
    if (current === null || current === undefined) return undefined;
    if (!isPlainObject(current)) return MINGO;
    current = Object.hasOwn(current, segment) ? current[segment] : undefined;
  }
  return current;
}
