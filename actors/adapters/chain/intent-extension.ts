/**
 * An intent extension's rules as the orchestrator applies them (extendIntentExpiry), in the
 * same order: what would refuse one before it is sent, and what a revert of one meant, each as
 * document 1's action code.
 */
import { decodeErrorResult, type Hex } from 'viem';
import { EXTENSION_REVERT_CODES } from '../../../machines/payment/index.js';
import { protocolErrorsAbi } from '../../../indexer/chain/index.js';
import type { ExtensionReadiness, IntentExtensionCode, IntentOnChain } from './intent-port.js';

/** The orchestrator's MAX_INTENT_LIFETIME: no extension moves an expiry past this long after the signal. */
export const MAX_INTENT_LIFETIME_SECONDS = 5 * 24 * 60 * 60;

/**
 * The code extending `intent` by `additionalSeconds` at `nowSeconds` (the chain's time) would fail
 * with, or null when the extension would go through. `readiness` is read for the same intent.
 */
export function extensionRefusal(
  intent: IntentOnChain | null,
  readiness: ExtensionReadiness,
  additionalSeconds: number,
  nowSeconds: number,
): IntentExtensionCode | null {
  if (!intent) return 'PAYMENT_NOT_OPEN';
  if (!intent.guardian || !readiness.from) return 'UNSUPPORTED_INTENT_GUARDIAN';
  if (nowSeconds >= intent.expiryTime) return 'INTENT_ALREADY_EXPIRED';
  if (intent.expiryTime + additionalSeconds > intent.timestamp + MAX_INTENT_LIFETIME_SECONDS) return 'FIVE_DAY_LIFETIME_EXCEEDED';
  if (readiness.fee > 0n && (readiness.balance < readiness.fee || readiness.allowance < readiness.fee)) return 'INSUFFICIENT_EXTENSION_TOKEN_BALANCE';
  return null;
}

/**
 * What a reverted extension meant, from its revert data; anything else (no data, a panic, an
 * orchestrator without extensions, which reverts with none) is INTENT_EXTENSION_TRANSACTION_REVERTED.
 */
export function extensionRevertCode(revertData: Hex | null): IntentExtensionCode {
  if (!revertData || revertData === '0x') return 'INTENT_EXTENSION_TRANSACTION_REVERTED';
  try {
    const { errorName } = decodeErrorResult({ abi: protocolErrorsAbi, data: revertData });
    // The orchestrator's errors (and the token's, should the fee fail in it after all), by what they mean for an extension.
    return (EXTENSION_REVERT_CODES[errorName] as IntentExtensionCode | undefined) ?? 'INTENT_EXTENSION_TRANSACTION_REVERTED';
  } catch {
    return 'INTENT_EXTENSION_TRANSACTION_REVERTED';
  }
}
