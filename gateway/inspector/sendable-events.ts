import type { ActorSystem } from '../../actors/runtime/actor-system.js';

/**
 * The event types an engineer may send an actor of `kind` (event-sender.ts): its
 * machine's, less those that create an actor and xstate's own delayed events, which
 * only their timers deliver.
 */
export function sendableEvents(system: ActorSystem, kind: string): string[] {
  const definition = system.kind(kind);
  const types = new Set(definition.machine.root.events.filter((type) => !type.startsWith('xstate.') && !definition.createdBy.includes(type)));
  return [...types].sort();
}
