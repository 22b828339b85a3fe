/**
 * What a turn changed in the context: the paths whose values differ between the context
 * before and after, each with both values (undefined where the path is new or gone).
 * Objects and lists are walked down to the values that changed, so a payment whose
 * status moved in an order's list reads `payments[0].status`, and a list that grew shows
 * its new entry. A bigint as the codec writes it ({"__bigint": …}) is one value.
 */
export interface Change {
  path: string;
  before: unknown;
  after: unknown;
}

export function contextDiff(before: unknown, after: unknown, path = ''): Change[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, index) => contextDiff(before[index], after[index], `${path}[${index}]`)).flat();
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => contextDiff(before[key], after[key], path ? `${path}.${key}` : key));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: path || '(the context)', before, after }];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('__bigint' in value);
}
