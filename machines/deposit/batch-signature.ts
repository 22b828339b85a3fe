/**
 * What an embedded wallet signs so a sponsor may run its batch (EIP-712, checked by the batch
 * executor the wallet delegates to): the calls, a nonce and a deadline, under a domain that names
 * the wallet itself as verifying contract, so a signature holds for that one account and chain.
 */
import type { Hex } from 'viem';
import { idHash } from '../id-hash.js';
import type { BatchCall } from './atomic-calls.js';

export const BATCH_EXECUTOR_DOMAIN = { name: 'PeerBatchExecutor', version: '1' } as const;

export const BATCH_TYPES = {
  Batch: [
    { name: 'calls', type: 'Call[]' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
  Call: [
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
} as const;

export interface BatchTypedData {
  domain: { name: string; version: string; chainId: number; verifyingContract: Hex };
  types: typeof BATCH_TYPES;
  primaryType: 'Batch';
  message: { calls: BatchCall[]; nonce: bigint; deadline: bigint };
}

export function batchTypedData(wallet: Hex, chainId: number, calls: BatchCall[], nonce: bigint, deadline: bigint): BatchTypedData {
  return {
    domain: { ...BATCH_EXECUTOR_DOMAIN, chainId, verifyingContract: wallet },
    types: BATCH_TYPES,
    primaryType: 'Batch',
    message: { calls, nonce, deadline },
  };
}

/**
 * The executor's nonce for one submission of a request: derived, not drawn, so signing the
 * same submission again gives the same nonce, and the executor refuses to run it twice.
 */
export function batchNonce(requestId: string, attempt: number): bigint {
  return BigInt(idHash(`atomic-create:${requestId}:${attempt}`));
}
