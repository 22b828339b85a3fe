/** Closed-loop load: keeps `inFlight` calls running until `total` have finished, timing each. */
export interface LoadResult {
  inFlight: number;
  total: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export async function closedLoop(call: (i: number) => Promise<unknown>, inFlight: number, total: number): Promise<LoadResult> {
  const latencies = new Float64Array(total);
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const t0 = process.hrtime.bigint();
      await call(i);
      latencies[i] = Number(process.hrtime.bigint() - t0) / 1e6;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort();
  return { inFlight, total, perSecond: total / seconds, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) };
}

/**
 * Closed load for `seconds`: callers send until the time is up, and the calls still out
 * then are awaited and counted, so a server answering fewer requests than it has
 * connections over the run (a search holding the event loop for seconds) still gets a
 * rate, where autocannon's would be zero.
 */
export async function timedLoop(call: () => Promise<unknown>, inFlight: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      await call();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { inFlight, total: latencies.length, perSecond: latencies.length / elapsed, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) };
}

/** The value `share` of the way up `sorted` (ascending): the nearest rank below, the last value for 1. */
export function percentile(sorted: ArrayLike<number>, share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

/** The middle value, or the mean of the two middle ones; `values` is left as it was. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface Comparison {
  name: string;
  baseline: string;
  rows: Array<{ subject: LoadResult; base: LoadResult }>;
}

export function formatComparison({ name, baseline, rows }: Comparison): string {
  const lines = [
    `### ${name} (baseline: ${baseline})`,
    '',
    '| in flight | asks/s | p50 ms | p99 ms | baseline/s | baseline p50 ms | baseline p99 ms | throughput ratio | p99 ratio |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { subject, base } of rows) {
    lines.push(
      `| ${subject.inFlight} | ${fmt(subject.perSecond, 0)} | ${fmt(subject.p50Ms, 3)} | ${fmt(subject.p99Ms, 3)} | ${fmt(base.perSecond, 0)} | ${fmt(base.p50Ms, 3)} | ${fmt(base.p99Ms, 3)} | ${fmt(subject.perSecond / base.perSecond, 4)} | ${fmt(subject.p99Ms / base.p99Ms, 1)} |`,
    );
  }
  return lines.join('\n');
}

function fmt(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
