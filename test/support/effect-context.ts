/**
 * An effect's context outside a running node, for calling a kind's effects directly:
 * what the effect reports to its own actor is kept in `reports` instead of being asked.
 */
import { createLogger, SystemClock } from '../../actors/index.js';
import type { EffectContext } from '../../actors/runtime/actor-kind.js';

export function recordingEffectContext(
  kind: string,
  id: string,
  options: { turn: number; at: number },
): { context: EffectContext; reports: Array<Record<string, unknown>> } {
  const reports: Array<Record<string, unknown>> = [];
  const context = {
    actor: { kind, id },
    effectId: `${kind}:${id}:${options.turn}:0`,
    at: options.at,
    epoch: 1,
    clock: new SystemClock(),
    actorNow: async () => Date.now(),
    logger: createLogger({ level: 'silent' }),
    askAt: async (_address: unknown, event: Record<string, unknown>) => void reports.push(event),
  } as unknown as EffectContext;
  return { context, reports };
}
