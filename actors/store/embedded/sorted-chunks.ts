/**
 * A sorted list kept as a run of short sorted arrays. One flat array would be
 * simpler, but inserting near the front of 100,000 object references costs V8
 * around 100µs (every shifted slot goes through the write barrier), so building an
 * index in its own order (newest first, the usual case) would be quadratic. Chunks
 * bound that shift to one chunk; a position is a chunk and an offset in it, valid
 * until the next insert or delete. Chunks of 128 rather than 512 took a write to an
 * order's four ordered indexes from 18 to 15.5 µs at 100,000 rows: the shift is most
 * of an insert, and the extra chunks cost two more steps of the binary search.
 */
export interface Position {
  readonly chunk: number;
  readonly offset: number;
}

const DEFAULT_CHUNK = 128;

export class SortedChunks<T> {
  readonly #chunks: T[][] = [];
  readonly #order: (a: T, b: T) => number;
  readonly #max: number;
  /** Below this size a chunk is merged into a neighbour when that fits, so deletes cannot leave many tiny chunks. */
  readonly #min: number;

  /** `order` must be total: items it calls equal are the same item. */
  constructor(order: (a: T, b: T) => number, maxChunk = DEFAULT_CHUNK) {
    this.#order = order;
    this.#max = Math.max(2, maxChunk);
    this.#min = Math.floor(this.#max / 4);
  }

  insert(item: T): void {
    const last = this.#chunks.length - 1;
    if (last < 0) {
      this.#chunks.push([item]);
      return;
    }
    // Rows mostly come in an index's own order (a sequence, a time, the newest first): one past either end needs no search,
    // and a full end chunk is followed by a new one rather than split, so such runs fill their chunks.
    const tail = this.#chunks[last]!;
    if (this.#order(tail[tail.length - 1]!, item) < 0) {
      if (tail.length < this.#max) tail.push(item);
      else this.#chunks.push([item]);
      return;
    }
    const head = this.#chunks[0]!;
    if (this.#order(item, head[0]!) < 0) {
      if (head.length < this.#max) head.unshift(item);
      else this.#chunks.unshift([item]);
      return;
    }
    // The first chunk not wholly before the item, or the last chunk when all are.
    const c = Math.min(
      this.#firstChunkNotBefore((other) => this.#order(other, item) < 0),
      last,
    );
    const chunk = this.#chunks[c]!;
    chunk.splice(
      firstNotBefore(chunk, (other) => this.#order(other, item) < 0),
      0,
      item,
    );
    if (chunk.length > this.#max) this.#chunks.splice(c + 1, 0, chunk.splice(chunk.length >> 1));
  }

  /** Removes the item `order` calls equal to `item`; returns whether there was one. */
  delete(item: T): boolean {
    const { chunk: c, offset } = this.boundary((other) => this.#order(other, item) < 0);
    const chunk = this.#chunks[c];
    if (!chunk || this.#order(chunk[offset]!, item) !== 0) return false;
    chunk.splice(offset, 1);
    if (chunk.length === 0) this.#chunks.splice(c, 1);
    else if (chunk.length < this.#min) this.#mergeAround(c);
    return true;
  }

  /**
   * The position of the first item `isBefore` is false for; `isBefore` must hold for
   * a leading run of items and for none after it. Past the end when it holds for all.
   */
  boundary(isBefore: (item: T) => boolean): Position {
    const c = this.#firstChunkNotBefore(isBefore);
    const chunk = this.#chunks[c];
    return chunk ? { chunk: c, offset: firstNotBefore(chunk, isBefore) } : { chunk: c, offset: 0 };
  }

  /** The item at `position`, or undefined past the end. */
  at(position: Position): T | undefined {
    return this.#chunks[position.chunk]?.[position.offset];
  }

  /** How many items lie from `from` up to, not including, `to`. */
  countBetween(from: Position, to: Position): number {
    let count = to.offset - from.offset;
    for (let c = from.chunk; c < to.chunk; c++) count += this.#chunks[c]!.length;
    return count;
  }

  /** The items from `from` up to, not including, `to`; last first when `reverse`. */
  *between(from: Position, to: Position, reverse = false): Generator<T> {
    const last = Math.min(to.chunk, this.#chunks.length - 1);
    if (reverse) {
      for (let c = last; c >= from.chunk; c--) {
        const [chunk, start, stop] = this.#slice(c, from, to);
        for (let i = stop - 1; i >= start; i--) yield chunk[i]!;
      }
    } else {
      for (let c = from.chunk; c <= last; c++) {
        const [chunk, start, stop] = this.#slice(c, from, to);
        for (let i = start; i < stop; i++) yield chunk[i]!;
      }
    }
  }

  /** Chunk `c` and the offsets in it that lie between `from` and `to`. */
  #slice(c: number, from: Position, to: Position): [chunk: readonly T[], start: number, stop: number] {
    const chunk = this.#chunks[c]!;
    return [chunk, c === from.chunk ? from.offset : 0, c === to.chunk ? to.offset : chunk.length];
  }

  #firstChunkNotBefore(isBefore: (item: T) => boolean): number {
    let low = 0;
    let high = this.#chunks.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const chunk = this.#chunks[mid]!;
      if (isBefore(chunk[chunk.length - 1]!)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Merges chunk `c` with its next neighbour, or its previous one when it is last, if the two fit in one. */
  #mergeAround(c: number): void {
    const left = c + 1 < this.#chunks.length ? c : c - 1;
    if (left < 0) return;
    const [first, second] = [this.#chunks[left]!, this.#chunks[left + 1]!];
    if (first.length + second.length > this.#max) return;
    first.push(...second);
    this.#chunks.splice(left + 1, 1);
  }
}

function firstNotBefore<T>(items: readonly T[], isBefore: (item: T) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (isBefore(items[mid]!)) low = mid + 1;
    else high = mid;
  }
  return low;
}
