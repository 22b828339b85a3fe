/**
 * Where the page stands in an actor's history: `null` is now (the document as it
 * stands), a number the index of a turn in the pager. Steps read further pages as they
 * need them, so the first page is all that is read until the engineer goes further.
 */
import type { HistoryPager } from './history-pager.js';

export type Position = number | null;

/** One turn earlier: from now, the newest turn; never before the first. */
export async function stepBack(pager: HistoryPager, position: Position): Promise<Position> {
  if (position === null) {
    await pager.rest();
    return pager.turns.length === 0 ? null : pager.turns.length - 1;
  }
  return Math.max(0, position - 1);
}

/** One turn later: past the newest turn is now. */
export async function stepForward(pager: HistoryPager, position: Position): Promise<Position> {
  if (position === null) return null;
  if (position + 1 >= pager.turns.length) await pager.more();
  return position + 1 < pager.turns.length ? position + 1 : null;
}

/** "viewing turn 3 of 12", or "of 20+" while pages remain unread. */
export function travelLabel(pager: HistoryPager, position: number): string {
  return `viewing turn ${position + 1} of ${pager.turns.length}${pager.hasMore ? '+' : ''}`;
}
