/**
 * Candidate sets: the entries an index says a filter can match. The planner keeps
 * the smallest it can find; the filter itself then decides on each candidate.
 */
import type { Entry } from './entry.js';

/** Entries a filter can match; `entries` yields at most `size` of them, in no particular order. */
export interface Candidates {
  readonly size: number;
  entries(): Iterable<Entry>;
}

/**
 * The entries whose ids are in every one of `sets` (posting sets, say one per
 * element an `$all` requires). The walk starts from the smallest set and probes the
 * others smallest first, so it costs the rarest value's postings, however common the
 * rest are; that smallest size is the bound the planner compares.
 */
export function intersection(sets: readonly ReadonlySet<string>[], entryOf: (id: string) => Entry): Candidates {
  const [smallest, ...others] = [...sets].sort((a, b) => a.size - b.size);
  if (!smallest) throw new Error('an intersection needs at least one set');
  return {
    size: smallest.size,
    *entries() {
      for (const id of smallest) if (others.every((ids) => ids.has(id))) yield entryOf(id);
    },
  };
}

/** The entries of any of `parts` (the branches of an `$or`), each once. */
export function union(parts: readonly Candidates[]): Candidates {
  return {
    size: parts.reduce((size, part) => size + part.size, 0),
    *entries() {
      const seen = new Set<Entry>();
      for (const part of parts) {
        for (const entry of part.entries()) {
          if (seen.has(entry)) continue;
          seen.add(entry);
          yield entry;
        }
      }
    },
  };
}
