/**
 * What the runtime reports to metrics. The runtime calls this interface; the
 * Prometheus implementation (prometheus-metrics.ts) turns it into series, and
 * `noMetrics` keeps tests and tools free of any registry.
 */
export type AskOutcome = 'ok' | 'rejected' | 'unknown_actor' | 'timeout' | 'unavailable' | 'error';
export type TurnOutcome = 'applied' | 'replayed' | 'rejected' | 'error';
export type EffectOutcome = 'ok' | 'retry' | 'dead_lettered';

export interface RuntimeMetrics {
  ask(kind: string, outcome: AskOutcome, seconds: number): void;
  turn(kind: string, outcome: TurnOutcome): void;
  conflict(kind: string): void;
  effect(kind: string, type: string, outcome: EffectOutcome): void;
  timerFired(kind: string, latenessSeconds: number): void;
  storeOperation(collection: string, operation: 'insert' | 'replace' | 'update' | 'delete' | 'find' | 'count', seconds: number): void;
  leaseRenewFailure(): void;
  shardsHeld(count: number): void;
  /** Gauges read at scrape time. */
  observe(gauges: { pendingOutbox?: () => Promise<number>; deadLetters?: () => Promise<number> }): void;
}

export const noMetrics: RuntimeMetrics = {
  ask() {},
  turn() {},
  conflict() {},
  effect() {},
  timerFired() {},
  storeOperation() {},
  leaseRenewFailure() {},
  shardsHeld() {},
  observe() {},
};
