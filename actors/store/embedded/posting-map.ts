/**
 * An equality index's postings: value key -> ids of the documents holding it. Most
 * keys of a multikey index belong to one document (the trigrams of an order's random
 * id), so a lone id is kept as itself and a set is made only for a second one: a set
 * per key cost an allocation per key per write and most of the heap at 100,000 orders.
 */
export class PostingMap {
  readonly #postings = new Map<string, string | Set<string>>();

  /** How many distinct keys are posted. */
  get size(): number {
    return this.#postings.size;
  }

  add(key: string, id: string): void {
    const ids = this.#postings.get(key);
    if (ids === undefined) this.#postings.set(key, id);
    else if (typeof ids === 'string') {
      if (ids !== id) this.#postings.set(key, new Set([ids, id]));
    } else ids.add(id);
  }

  remove(key: string, id: string): void {
    const ids = this.#postings.get(key);
    if (ids === undefined) return;
    if (typeof ids === 'string') {
      if (ids === id) this.#postings.delete(key);
      return;
    }
    ids.delete(id);
    if (ids.size === 1) this.#postings.set(key, ids.values().next().value!);
  }

  /** The ids posted under `key`, or undefined when none is. */
  get(key: string): ReadonlySet<string> | undefined {
    const ids = this.#postings.get(key);
    return typeof ids === 'string' ? new Set([ids]) : ids;
  }
}
