/**
 * Values built from actor documents, kept in memory and never older than the last write a
 * caller can have seen answered:
 * - On a node that serves every shard (the embedded deployment) no other node writes, and
 *   the runtime reports each write on this one before its turn answers: the write drops
 *   the value, so a hit reads nothing.
 * - In a cluster another node may write and nothing tells this one in time, so a hit is
 *   checked against the stored document's version first: one read by `_id` that returns
 *   only the version.
 * A value read while a write of its kind was heard may predate that write, so it is
 * answered but not kept. Past `capacity` the oldest kept value leaves.
 */
import type { ActorSystem } from '../actors/runtime/actor-system.js';

interface Kept<T> {
  version: number;
  value: T;
}

export class KeptViews<T> {
  readonly #kept = new Map<string, Kept<T>>();
  /** Whether this node hears of every write of the kind, or must check each hit's version. */
  readonly #hearsEveryWrite: boolean;
  /** Moves on every write heard: a value read before it may predate the write. */
  #writes = 0;

  constructor(
    private readonly system: ActorSystem,
    private readonly kind: string,
    private readonly capacity: number,
    /** Told of every value that leaves, so indexes beside it can follow. */
    private readonly onDrop: (id: string, value: T) => void = () => {},
  ) {
    this.#hearsEveryWrite = system.servesEveryShard;
    if (this.#hearsEveryWrite) {
      system.onWrite(kind, (id) => {
        this.#writes++;
        this.drop(id);
      });
    }
  }

  /** The kept value of `id` if it is still built from the stored document. */
  async current(id: string | undefined): Promise<T | undefined> {
    const kept = id === undefined ? undefined : this.#kept.get(id);
    if (!kept || this.#hearsEveryWrite) return kept?.value;
    const stored = await this.system.documents(this.kind).findOne({ _id: id }, { projection: { version: 1 } });
    if (stored?.version === kept.version) return kept.value;
    this.drop(id!);
    return undefined;
  }

  /** Marks the start of a read: pass it to `keep` with what the read built. */
  reading(): number {
    return this.#writes;
  }

  /** Keeps `value`, built from version `version` of `id`'s document by the read that began at `read`, unless a write was heard since; says whether it did. */
  keep(id: string, version: number, value: T, read: number): boolean {
    if (read !== this.#writes) return false;
    this.drop(id);
    if (this.#kept.size >= this.capacity) this.drop(this.#kept.keys().next().value!);
    this.#kept.set(id, { version, value });
    return true;
  }

  drop(id: string): void {
    const kept = this.#kept.get(id);
    if (!kept) return;
    this.#kept.delete(id);
    this.onDrop(id, kept.value);
  }
}
