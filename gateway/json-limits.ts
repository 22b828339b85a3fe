/**
 * Measures of parsed JSON for the input limits (docs/api-conventions.md). Both walk
 * the value without recursion: these run on what a stranger sent, before it is
 * trusted, and must not overflow the stack on any input.
 */

/** Whether objects and arrays nest deeper than `limit` (`{}` is 1 level, `[{}]` is 2; scalars add none). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Bytes of the value as compact JSON in UTF-8: what it costs to store and to answer. Call only on bounded depth. */
export function jsonByteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}
