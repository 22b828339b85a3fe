/**
 * Trigrams of a search text: what lets a literal substring search use an index. A
 * term that occurs in a text has every one of its trigrams among the text's, so a
 * multikey index on the text's trigrams narrows a search to the documents holding
 * all of the term's; the substring test itself still decides, so the answer is
 * exactly what a scan would give.
 *
 * Grams are windows of UTF-16 code units, the units JavaScript's substring and
 * regular expressions (mingo's `$regex`) work in: a term that is a substring of a
 * text is made of the same units in a row, surrogate halves and all.
 */
const GRAM_LENGTH = 3;

/**
 * The most trigrams a view keeps. Every turn rewrites the whole view, so the grams
 * must stay a small part of it. A trigram costs about 12 bytes of BSON and 7 of the
 * embedded store's JSON: an id and short notes make about 60 (a view of 1.3 KB of
 * BSON grows to 2.1 KB), and 256, the most, about 3 KB. 256 covers some 250
 * characters of varied text; a longer one is searched by its text alone.
 */
export const MAX_VIEW_GRAMS = 256;

/**
 * A term's grams sent with a search. MongoDB's planner tries each `$all` value as
 * the bound of its index scan and keeps the cheapest (SERVER-16042); a handful spread
 * over the term narrows about as well as all of them and keeps that race short.
 */
export const MAX_TERM_GRAMS = 16;

/**
 * The distinct trigrams of a text, in the order they first occur; null when there
 * are more than MAX_VIEW_GRAMS. A text without grams is never ruled out, so a search
 * reads such a view (as it reads a view written before grams existed) and decides on
 * its text alone.
 */
export function viewGrams(text: string): string[] | null {
  return distinctGrams(text, MAX_VIEW_GRAMS);
}

/**
 * Trigrams every text containing `term` holds: at most MAX_TERM_GRAMS of the term's
 * distinct trigrams, evenly spread from its first to its last. None for a term
 * shorter than a trigram, which no gram can narrow.
 */
export function termGrams(term: string): string[] {
  const all = distinctGrams(term, Infinity)!;
  if (all.length <= MAX_TERM_GRAMS) return all;
  const step = (all.length - 1) / (MAX_TERM_GRAMS - 1);
  return Array.from({ length: MAX_TERM_GRAMS }, (_, i) => all[Math.round(i * step)]!);
}

/** The distinct trigrams of `text` in the order they first occur, or null past `max` of them. */
function distinctGrams(text: string, max: number): string[] | null {
  const grams = new Set<string>();
  for (let at = 0; at + GRAM_LENGTH <= text.length; at++) {
    grams.add(text.slice(at, at + GRAM_LENGTH));
    if (grams.size > max) return null;
  }
  return [...grams];
}
