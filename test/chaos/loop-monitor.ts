/** Event-loop lateness of this process, so the chaos report can tell a starved machine from a runtime bug. */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LoopStats } from './protocol.js';

export function loopMonitor(): { stats(): LoopStats; reset(): void } {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  const round = (ns: number) => Math.round(ns / 1e5) / 10;
  return {
    stats: () => {
      const cpu = process.cpuUsage();
      return {
        maxMs: round(histogram.max),
        p99Ms: round(histogram.percentile(99)),
        meanMs: round(histogram.mean),
        cpuSeconds: Math.round((cpu.user + cpu.system) / 1e4) / 100,
      };
    },
    reset: () => histogram.reset(),
  };
}
