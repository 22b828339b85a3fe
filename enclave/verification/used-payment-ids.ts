/**
 * Payment ids already attested: on one chain, a payment proves one intent, never two.
 * A payment id is claimed for an intent, keyed by (chain, platform, payment id) through
 * the chain's own nullifier, before its attestation is signed; asking again for the same
 * intent (a client that lost the answer) is allowed and signs the same data again, asking
 * for any other intent on that chain is refused. The claims live in the service's store,
 * so a restart forgets none. A claim whose signing then failed is released: nothing
 * signed, nothing to protect. A claim is never released otherwise, even when its intent
 * is cancelled: the orchestrator's manual release does not spend the payment's nullifier
 * on chain, so this registry is what stops the payment from being offered again.
 */
import type { Hex } from 'viem';
import { PaymentRefusedError } from '../errors.js';

export interface UsedPaymentIdDocument {
  /** `<chainId>:<nullifier>`. */
  _id: string;
  [field: string]: unknown;
  chainId: number;
  /** keccak256(method hash ‖ payment id hash), as the chain's nullifier: platform and payment id in one. */
  nullifier: string;
  intentHash: string;
  platform: string;
  claimedAt: string;
}

/** The store calls the registry makes; the platform store's collections answer them. */
export interface UsedPaymentIdCollection {
  insertOne(doc: UsedPaymentIdDocument): Promise<void>;
  findOne(filter: { _id: string }): Promise<UsedPaymentIdDocument | null>;
  deleteOne(filter: { _id: string; intentHash: string }): Promise<boolean>;
}

export const USED_PAYMENT_IDS_COLLECTION = { name: 'enclave_used_payment_ids', indexes: [] };

/** What a claim did: made it now (the caller releases it if its signing fails) or found it made for this intent already. */
export type Claim = 'CLAIMED' | 'ALREADY_CLAIMED_FOR_THIS_INTENT';

export class UsedPaymentIds {
  constructor(
    private readonly collection: UsedPaymentIdCollection,
    private readonly now: () => number = Date.now,
  ) {}

  async claim(chainId: number, nullifier: Hex, intentHash: Hex, platform: string): Promise<Claim> {
    const _id = claimId(chainId, nullifier);
    try {
      await this.collection.insertOne({ _id, chainId, nullifier, intentHash, platform, claimedAt: new Date(this.now()).toISOString() });
      return 'CLAIMED';
    } catch (error) {
      // Only a clash with an earlier claim is answered here; any other failure is the store's and propagates.
      const earlier = await this.collection.findOne({ _id });
      if (!earlier) throw error;
      if (earlier.intentHash === intentHash) return 'ALREADY_CLAIMED_FOR_THIS_INTENT';
      throw new PaymentRefusedError('PAYMENT_ID_ALREADY_USED', `this ${platform} payment was already attested for another intent on chain ${chainId}`, 409);
    }
  }

  /** Gives back a claim this intent made and could not sign for. */
  async release(chainId: number, nullifier: Hex, intentHash: Hex): Promise<void> {
    await this.collection.deleteOne({ _id: claimId(chainId, nullifier), intentHash });
  }
}

const claimId = (chainId: number, nullifier: Hex) => `${chainId}:${nullifier}`;
