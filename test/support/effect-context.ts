/**
 * An effect's context outside a running node, for calling a kind's effects directly:
 * what the effect reports to its own actor is kept in `reports` instead of being asked.
 * Every ask, to its own actor or another, is kept in `asks` with its address and message
 * id; `answer` stands in for the addressed actor (throw a CommandRejectedError to refuse).
 * With `now`, the node's clock and the actor's time are both fixed there.
 */
import { createLogger, noMetrics, SystemClock, TestClock } from '../../actors/index.js';
import type { EffectContext } from '../../actors/runtime/actor-kind.js';

export interface RecordedAsk {
  address: { kind: string; id: string };
  event: Record<string, unknown>;
  messageId: string | undefined;
}

export function recordingEffectContext(
  kind: string,
  id: string,
  options: {
    turn: number;
    at: number;
    now?: number;
    answer?: (address: RecordedAsk['address'], event: Record<string, unknown>) => unknown;
  },
): { context: EffectContext; reports: Array<Record<string, unknown>>; asks: RecordedAsk[] } {
  const reports: Array<Record<string, unknown>> = [];
  const asks: RecordedAsk[] = [];
  const clock = options.now === undefined ? new SystemClock() : new TestClock(options.now);
  const context = {
    actor: { kind, id },
    effectId: `${kind}:${id}:${options.turn}:0`,
    at: options.at,
    epoch: 1,
    clock,
    actorNow: async () => clock.now(),
    logger: createLogger({ level: 'silent' }),
    metrics: noMetrics,
    askAt: async (address: RecordedAsk['address'], event: Record<string, unknown>, askOptions?: { messageId?: string }) => {
      asks.push({ address, event, messageId: askOptions?.messageId });
      if (address.kind === kind && address.id === id) reports.push(event);
      return options.answer?.(address, event);
    },
  } as unknown as EffectContext;
  return { context, reports, asks };
}
