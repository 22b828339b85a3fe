/**
 * The chargeback's chain side (docs/chargebacks.md): a maker's stake compensates a fiat payment
 * reversed on its rail after it settled, and the escrow records it (`compensateChargeback`, event
 * `ChargebackCompensated`). Only the escrow's dispute arbiter may call it: the platform's relayer
 * wallet, so the transaction goes through the relayer like every other the node sends. The indexer
 * then reads the event as a fact, and the payment and its order take it from there; this port only
 * asks the chain (actors/adapters/chain/relayed-stake-compensation.ts).
 */
import type { Hex } from 'viem';
import { PlatformError } from '../errors/platform-error.js';

export interface StakeCompensationRequest {
  intentHash: Hex;
  disputeId: string;
  amountUsdc: bigint;
}

export interface StakeCompensation {
  compensate(request: StakeCompensationRequest): Promise<{ transactionHash: Hex }>;
}

/** The escrow would not record it (not settled, not protected, already compensated, no stake, …), or the transaction ended unmined. */
export class ChargebackRefusedError extends PlatformError {
  override readonly name = 'ChargebackRefusedError';
  readonly code = 'CHARGEBACK_REFUSED';
}
