/**
 * Times in machines are ISO 8601 strings from one clock (`Date#toISOString()`), so
 * they compare as strings and survive any store. This is the one way a machine moves
 * one forward.
 */
export function isoAfter(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}
