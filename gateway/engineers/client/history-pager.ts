/**
 * An actor's turns as the page has them: the API pages them oldest first after a
 * version (`nextAfter`), so the pager keeps every page read so far and asks for the next
 * one only when the list or a step through time needs it.
 */
import type { Turn, TurnPage } from './inspector-types.js';

export type FetchTurns = (after: number, limit: number) => Promise<TurnPage>;

export class HistoryPager {
  readonly turns: Turn[] = [];
  #nextAfter: number | null = 0;

  constructor(
    private readonly fetchTurns: FetchTurns,
    private readonly pageSize = 20,
  ) {}

  get hasMore(): boolean {
    return this.#nextAfter !== null;
  }

  /** Reads the next page; nothing once the last one is in. */
  async more(limit = this.pageSize): Promise<Turn[]> {
    if (this.#nextAfter === null) return [];
    const page = await this.fetchTurns(this.#nextAfter, limit);
    this.turns.push(...page.turns);
    this.#nextAfter = page.hasMore ? page.nextAfter : null;
    return page.turns;
  }

  /** Reads every page left, in the API's largest pages: a step back from now needs the newest turn. */
  async rest(): Promise<void> {
    while (this.hasMore) await this.more(100);
  }
}
