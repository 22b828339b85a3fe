/** A delay in the words a chart reads it in: 3600000 ms is `1h`, 5400000 is `1h 30m`. */

const UNITS: ReadonlyArray<[suffix: string, ms: number]> = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
];

export function durationLabel(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return String(ms);
  const parts: string[] = [];
  let rest = Math.round(ms);
  for (const [suffix, size] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${suffix}`);
    rest -= count * size;
  }
  return parts.length > 0 ? parts.join(' ') : '0ms';
}
