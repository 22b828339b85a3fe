/**
 * Which payment each delivery transaction settled. A conversion provider names the
 * transactions that delivered a request; a provider that named one delivery for two
 * requests (a bug, or a compromised provider) would otherwise credit two orders with one
 * transfer. The first payment to claim a transaction keeps it; a claim is durable and
 * claiming again for the same payment (an effect run twice) is the same claim.
 */
import { DuplicateKeyError } from '../errors.js';
import type { Collection, Store } from '../store/store.js';

type ClaimDoc = { _id: string; paymentId: string; claimedAt: string };

export class DeliveryClaims {
  private constructor(private readonly claims: Collection<ClaimDoc>) {}

  static async open(store: Store): Promise<DeliveryClaims> {
    return new DeliveryClaims(await store.collection<ClaimDoc>({ name: 'delivery_claims', indexes: [] }));
  }

  /** Whether `transactionHash` on `chainId` is `paymentId`'s: claimed now or before by it, not by another payment. */
  async claim(chainId: number, transactionHash: string, paymentId: string, at: string): Promise<boolean> {
    const _id = `${chainId}:${transactionHash.toLowerCase()}`;
    try {
      await this.claims.insertOne({ _id, paymentId, claimedAt: at });
      return true;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return (await this.claims.findOne({ _id }))?.paymentId === paymentId;
    }
  }
}
