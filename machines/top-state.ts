/**
 * A machine's public status is its top-level state: the value itself for an atomic state,
 * the one key of a compound one (`{ SUBMITTED: 'checking' }` is SUBMITTED).
 */
export function topState(value: unknown): string {
  return typeof value === 'string' ? value : Object.keys(value as object)[0]!;
}
