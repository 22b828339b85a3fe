/**
 * An actor's state value as the chart's state ids to highlight: the machine itself, then
 * each state the value names and its ancestors (every region of a parallel state).
 * Walks the chart's own tree rather than joining keys with dots, because a state may
 * carry an id of its own in the machine.
 */
import type { ChartState } from '../../../machines/charts/chart-graph.js';
import type { StateValue } from './inspector-types.js';

export function activeStateIds(root: ChartState, value: StateValue): string[] {
  const ids = [root.id];
  const visit = (state: ChartState, value: unknown) => {
    if (typeof value === 'string') {
      const child = childNamed(state, value);
      if (child) ids.push(child.id);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      const child = childNamed(state, key);
      if (!child) continue;
      ids.push(child.id);
      visit(child, inner);
    }
  };
  visit(root, value);
  return ids;
}

function childNamed(state: ChartState, key: string): ChartState | undefined {
  return state.states.find((child) => child.key === key);
}

/** A state value in one line, as the chart's ids read: `CREATED.AWAITING_PAYMENT`, `{a: X, b: Y}` for parallel regions. */
export function stateLabel(value: StateValue | null): string {
  if (value === null) return '∅';
  if (typeof value === 'string') return value;
  const entries = Object.entries(value);
  const parts = entries.map(([key, inner]) =>
    inner === null || (typeof inner === 'object' && Object.keys(inner).length === 0) ? key : `${key}.${stateLabel(inner as StateValue)}`,
  );
  return parts.length === 1 ? parts[0]! : `{${parts.join(', ')}}`;
}
