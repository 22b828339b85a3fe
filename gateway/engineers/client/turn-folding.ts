/**
 * Polling folded: an actor that checks something again and again writes a turn per
 * check and buries the turns that matter. A transaction waiting to be mined goes round
 * two turns (its timer moves it from waiting to checking, NOT_MINED back to waiting); a
 * simpler poll repeats one turn in one state. Consecutive repeats of one turn, or of a
 * pair of turns, alike in event type and states before and after, are one row with a
 * count.
 */
import type { Turn } from './inspector-types.js';

/** A row of the history: turns `first` to `last` (indexes, oldest first), `count` rounds of `period` turns each. */
export interface TurnRow {
  first: number;
  last: number;
  period: number;
  count: number;
}

const PERIODS = [1, 2];

export function foldTurns(turns: readonly Turn[]): TurnRow[] {
  const signatures = turns.map(signature);
  const rows: TurnRow[] = [];
  for (let index = 0; index < turns.length; ) {
    const folded = PERIODS.map((period) => ({ period, count: rounds(signatures, index, period) })).find(({ count }) => count >= 2);
    const { period, count } = folded ?? { period: 1, count: 1 };
    rows.push({ first: index, last: index + period * count - 1, period, count });
    index += period * count;
  }
  return rows;
}

/** How many times the `period` turns from `start` repeat back to back. */
function rounds(signatures: readonly string[], start: number, period: number): number {
  if (start + period > signatures.length) return 0;
  let count = 1;
  for (let next = start + period; next + period <= signatures.length; next += period) {
    for (let offset = 0; offset < period; offset++) if (signatures[next + offset] !== signatures[start + offset]) return count;
    count++;
  }
  return count;
}

function signature(turn: Turn): string {
  return JSON.stringify([turn.event.type, turn.timer !== null, turn.stateBefore, turn.stateAfter]);
}
