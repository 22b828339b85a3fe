/**
 * The customer's checkout link of a payout: `/cashout/{payoutId}?token=…`, the token an
 * HMAC of the payout id under the node's current link key, kept in the store so every node
 * signs alike. Rotating the key (the customer's side of payouts) makes earlier links stop
 * working; a replayed create answers the link under the current key.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Store } from '../../actors/store/store.js';
import { DuplicateKeyError } from '../../actors/errors.js';

type LinkKeyDoc = {
  _id: string;
  secret: string;
  createdAt: string;
};

const CURRENT = 'current';

export class PayoutLinks {
  #key: Promise<LinkKeyDoc> | null = null;

  constructor(
    private readonly store: Store,
    private readonly baseUrl: () => string,
    private readonly now: () => string,
  ) {}

  async checkoutUrl(payoutId: string): Promise<string> {
    const key = await (this.#key ??= this.#current());
    const token = createHmac('sha256', key.secret).update(payoutId).digest('base64url');
    return `${this.baseUrl()}/cashout/${encodeURIComponent(payoutId)}?token=${token}`;
  }

  async #current(): Promise<LinkKeyDoc> {
    const keys = await this.store.collection<LinkKeyDoc>({ name: 'payout_link_keys', indexes: [] });
    const found = await keys.findOne({ _id: CURRENT });
    if (found) return found;
    const made = { _id: CURRENT, secret: randomBytes(32).toString('base64url'), createdAt: this.now() };
    try {
      await keys.insertOne(made);
      return made;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return (await keys.findOne({ _id: CURRENT }))!;
    }
  }
}
