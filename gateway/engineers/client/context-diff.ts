/**
 * What a turn changed in the context: the paths whose values differ between the context
 * before and after, each with both values (undefined where the path is new or gone).
 * Objects are walked key by key; an array or a value that changed type is one change
 * (a list of settlements that grew shows as the list, not an index per entry).
 */
export interface Change {
  path: string;
  before: unknown;
  after: unknown;
}

export function contextDiff(before: unknown, after: unknown, path = ''): Change[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => contextDiff(before[key], after[key], path ? `${path}.${key}` : key));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: path || '(the context)', before, after }];
}

/** A plain object, but not a bigint as the codec writes one ({"__bigint": …}), which is a value. */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('__bigint' in value);
}
