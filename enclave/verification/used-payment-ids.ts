/**
 * Payment ids already attested: a payment proves one intent, never two. A payment id
 * is claimed for an intent as its attestation is signed; asking again for the same
 * intent (a client that lost the answer) is allowed and signs the same data again,
 * asking for any other intent is refused. The on-chain verifier forgets an intent once
 * fulfilled, so the same attestation cannot release funds twice either way.
 */
import type { Hex } from 'viem';
import { PaymentRefusedError } from '../errors.js';

export interface UsedPaymentIdDocument {
  /** keccak256(method hash ‖ payment id hash), as the chain's nullifier. */
  _id: string;
  intentHash: string;
  platform: string;
  claimedAt: string;
}

/** The store calls the registry makes; the platform store's collections answer them. */
export interface UsedPaymentIdCollection {
  insertOne(doc: UsedPaymentIdDocument): Promise<void>;
  findOne(filter: { _id: string }): Promise<UsedPaymentIdDocument | null>;
}

export const USED_PAYMENT_IDS_COLLECTION = { name: 'enclave_used_payment_ids', indexes: [] };

export class UsedPaymentIds {
  constructor(
    private readonly collection: UsedPaymentIdCollection,
    private readonly now: () => number = Date.now,
  ) {}

  async claim(nullifier: Hex, intentHash: Hex, platform: string): Promise<void> {
    try {
      await this.collection.insertOne({ _id: nullifier, intentHash, platform, claimedAt: new Date(this.now()).toISOString() });
      return;
    } catch (error) {
      // Only a clash with an earlier claim is answered here; any other failure is the store's and propagates.
      const earlier = await this.collection.findOne({ _id: nullifier });
      if (!earlier) throw error;
      if (earlier.intentHash === intentHash) return;
      throw new PaymentRefusedError('PAYMENT_ID_ALREADY_USED', `this ${platform} payment was already attested for another intent`, 409);
    }
  }
}
