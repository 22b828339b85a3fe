/**
 * Secrets the customer's checkout signs with, kept in the store so every node signs and checks
 * alike: one current key per purpose, with a version that rotating moves on. A token names the
 * version it was signed under, so a token of an older version stops working the moment another
 * node rotates, without any node caching the key across requests.
 */
import { randomBytes } from 'node:crypto';
import { DuplicateKeyError } from '../../actors/errors.js';
import type { Collection, Store } from '../../actors/store/store.js';

export interface KeptKey {
  version: number;
  secret: Buffer;
}

type KeyDoc = { _id: string; version: number; secret: string; createdAt: string };

export class KeptKeys {
  #collection: ReturnType<Store['collection']> | null = null;

  constructor(
    private readonly store: Store,
    private readonly now: () => string,
  ) {}

  /** The current key for `purpose`, made on first use. */
  async current(purpose: string): Promise<KeptKey> {
    const keys = await this.#keys();
    const found = await keys.findOne({ _id: purpose });
    if (found) return keyOf(found);
    const made: KeyDoc = { _id: purpose, version: 1, secret: randomBytes(32).toString('base64url'), createdAt: this.now() };
    try {
      await keys.insertOne(made);
      return keyOf(made);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return keyOf((await keys.findOne({ _id: purpose }))!);
    }
  }

  /** Replaces the key with a new one of the next version: what the old one signed stops working. */
  async rotate(purpose: string): Promise<KeptKey> {
    const keys = await this.#keys();
    for (;;) {
      const before = await this.current(purpose);
      const next: KeyDoc = { _id: purpose, version: before.version + 1, secret: randomBytes(32).toString('base64url'), createdAt: this.now() };
      // Two rotations at once: one wins, the other rotates again from the winner's version.
      if (await keys.replaceOne({ _id: purpose, version: before.version }, next)) return keyOf(next);
    }
  }

  /** Opened once: opening a collection is no per-request work (MongoDB registers its model and indexes). */
  #keys() {
    this.#collection ??= this.store.collection<KeyDoc>({ name: 'cashout_keys', indexes: [] });
    return this.#collection as Promise<Collection<KeyDoc>>;
  }
}

const keyOf = (doc: KeyDoc): KeptKey => ({ version: doc.version, secret: Buffer.from(doc.secret, 'base64url') });
