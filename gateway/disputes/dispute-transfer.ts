/**
 * The merchant's payment of a dispute, read from the chain (docs/disputes.md): what USDC
 * a mined transaction moved to the seller. The platform records paidTxHash only once the
 * chain shows the transfer, and one transaction pays one dispute (a claim per hash).
 */
import { decodeEventLog, isAddressEqual, parseAbi, type Hex, type PublicClient } from 'viem';
import { DuplicateKeyError } from '../../actors/errors.js';
import type { Collection, Store } from '../../actors/store/store.js';

const transferEvent = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

export interface DisputeTransfers {
  /** USDC the transaction sent to `to`, summed over its Transfer logs; null when it is not mined (or unknown). */
  sentTo(txHash: Hex, to: Hex): Promise<bigint | null>;
}

export function chainTransfers(client: Pick<PublicClient, 'getTransactionReceipt'>, usdc: Hex): DisputeTransfers {
  return {
    async sentTo(txHash, to) {
      const receipt = await client.getTransactionReceipt({ hash: txHash }).catch(() => null);
      if (receipt?.status !== 'success') return null;
      let sent = 0n;
      for (const log of receipt.logs) {
        if (!isAddressEqual(log.address, usdc)) continue;
        try {
          const { args } = decodeEventLog({ abi: transferEvent, data: log.data, topics: log.topics });
          if (isAddressEqual(args.to, to)) sent += args.value;
        } catch {
          // Another event of the token contract (an Approval): not a transfer.
        }
      }
      return sent;
    },
  };
}

type ClaimRow = { _id: string; disputeId: string };

/** Which dispute each paying transaction paid: the first claim of a hash stands. */
export class DisputePaymentClaims {
  #rows: Promise<Collection<ClaimRow>> | null = null;

  constructor(private readonly store: Store) {}

  #collection(): Promise<Collection<ClaimRow>> {
    this.#rows ??= this.store.collection<ClaimRow>({ name: 'dispute_payment_claims', indexes: [] });
    return this.#rows;
  }

  /** True when the hash is now (or already was) this dispute's; false when another dispute holds it. */
  async claim(txHash: string, disputeId: string): Promise<boolean> {
    const rows = await this.#collection();
    const key = txHash.toLowerCase();
    try {
      await rows.insertOne({ _id: key, disputeId });
      return true;
    } catch (error) {
      // Only a hash another claim holds is an answer; a store that failed is not "already used".
      if (!(error instanceof DuplicateKeyError)) throw error;
      return (await rows.findOne({ _id: key }))?.disputeId === disputeId;
    }
  }
}
