/** A revert's data as words: the custom error of our contracts by name and arguments, or Solidity's own. */
import { BaseError, decodeErrorResult, type Abi } from 'viem';
import type { Hex } from '../../machines/transaction/index.js';
import type { Revert } from '../adapters/chain/relayer-chain.js';

export function describeRevert(data: Hex | null, abi: Abi): Revert {
  if (!data || data === '0x') return { reason: 'reverted without a reason', data: null };
  try {
    // viem adds Solidity's Error(string) and Panic(uint256) to the ABI it decodes with.
    const decoded = decodeErrorResult({ abi, data });
    // Hex (addresses, hashes) reads as itself; a message string is quoted, as Error("…") is written.
    const args = (decoded.args ?? []).map((arg) => (typeof arg === 'string' && !/^0x[0-9a-fA-F]*$/.test(arg) ? JSON.stringify(arg) : String(arg)));
    return { reason: `${decoded.errorName}(${args.join(', ')})`, data };
  } catch {
    return { reason: `reverted with unknown error ${data.slice(0, 10)}`, data };
  }
}

/** The revert data a failed call carries somewhere in its chain of causes, if any. */
export function revertDataOf(error: unknown): Hex | null {
  if (!(error instanceof BaseError)) return null;
  const carrier = error.walk((cause) => {
    const data = (cause as { data?: unknown }).data;
    return typeof data === 'string' && data.startsWith('0x');
  }) as { data?: Hex } | null;
  return carrier?.data ?? null;
}

/** Whether a failed call is the chain refusing it (a revert), rather than the node failing to answer. */
export function isRevert(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return error.walk((cause) => /execution reverted|revert/i.test((cause as Error).message ?? '')) !== null;
}
