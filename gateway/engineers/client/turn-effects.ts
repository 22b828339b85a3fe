import type { Turn } from './inspector-types.js';

/** The turn's effects in words, one a line; none is a dash. */
export function effectsOf(turn: Turn): string[] {
  const { outbox, timersSet, timersCancelled } = turn.effects;
  const lines = [
    ...outbox.map((entry) =>
      entry.type === 'event' ? `emit ${entry.event ?? ''}` : entry.type === 'tell' ? `tell ${entry.to ?? ''} ${entry.event ?? ''}` : entry.type,
    ),
    ...timersSet.map((timer) => `set ${timer.event} at ${timer.dueAt}`),
    ...timersCancelled.map((id) => `cancel ${id}`),
  ];
  return lines.length === 0 ? ['—'] : lines;
}
