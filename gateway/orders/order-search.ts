/**
 * The order list's `search`: a literal substring of the view's lower-cased search
 * text. The substring test alone decides what matches; the trigram condition only
 * lets the store reach the candidates through the `order_by_search_gram` index
 * instead of reading every order (actors/kinds/search-grams.ts).
 */
import { termGrams } from '../../actors/kinds/search-grams.js';
import type { Filter } from '../../actors/store/store.js';

/** The conditions for a search of `term` (already trimmed and at least 3 characters). */
export function searchFilter(term: string): Filter {
  const text = term.toLowerCase();
  const filter: Filter = { 'view.searchText': { $regex: escapeRegex(text) } };
  const grams = termGrams(text);
  // A view whose grams are null (too many, or written before grams existed) is a candidate for every search.
  if (grams.length > 0) filter.$or = [{ 'view.searchGrams': { $all: grams } }, { 'view.searchGrams': null }];
  return filter;
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
