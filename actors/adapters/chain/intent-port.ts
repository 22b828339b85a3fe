/**
 * What the payment flow needs of the chain, apart from the relayer that sends: the
 * calls to send for an intent (signal with the gating service's approval, fulfil with
 * the attestation, cancel, extend), the intent a mined signal created, and what an
 * extension needs before it is sent and what its revert meant. The node implements
 * it over the protocol's contracts (viem-intents.ts); the payment's effects see only this.
 */
import type { PaymentChain, PaymentHex as Hex } from '../../../machines/payment/index.js';

export interface ChainCallData {
  to: Hex;
  data: Hex;
}

export interface IntentTerms {
  depositId: bigint;
  amount: bigint;
  to: Hex;
  /** The platform id; the port hashes it as the deposit names it. */
  paymentMethod: string;
  /** ISO 4217; hashed likewise. */
  fiatCurrency: string;
  conversionRate: bigint;
  /** The platform's fee, signalled as the intent's referrer fee. */
  platformFeeBps: number;
}

/** An intent as a mined signal created it; times in Unix seconds. */
export interface SignalledIntent {
  intentHash: Hex;
  signalTimestamp: number;
  /** After it, a payment no longer counts for the intent (the attestation binds it); proving one made before still does. */
  expiryTime: number;
}

/** An open intent as the orchestrator holds it now; times in Unix seconds. */
export interface IntentOnChain {
  /** When it was signalled: no extension moves its expiry past five days after. */
  timestamp: number;
  expiryTime: number;
  /** The guardian in force when it was signalled, the only one who may extend it; null: it cannot be extended. */
  guardian: Hex | null;
}

/** What extending an intent needs now, of the intent's guardian; token amounts in the token's base units. */
export interface ExtensionReadiness {
  /** The wallet to send the extension from: the intent's guardian when the relayer holds its key, else null. */
  from: Hex | null;
  /** The token the guardian pays each extension's fee in; null when extensions are free or the orchestrator has none. */
  token: Hex | null;
  fee: bigint;
  /** The guardian's balance of the token and what it lets the orchestrator take; 0 when there is no token. */
  balance: bigint;
  allowance: bigint;
}

/** Document 1's codes an extension can fail with (Errors, "Action error.code values"). */
export type IntentExtensionCode =
  | 'INTENT_ALREADY_EXPIRED'
  | 'PAYMENT_NOT_OPEN'
  | 'FIVE_DAY_LIFETIME_EXCEEDED'
  | 'UNSUPPORTED_INTENT_GUARDIAN'
  | 'INSUFFICIENT_EXTENSION_TOKEN_BALANCE'
  | 'INTENT_EXTENSION_TRANSACTION_REVERTED';

export interface IntentPort {
  /** The wallets the relayer sends from; the intent's owner must be the one that sends the signal. */
  readonly wallets: readonly Hex[];
  /** signalIntent from `owner`, with the gating service's approval of exactly these terms for that caller. */
  signalCall(chain: PaymentChain, owner: Hex, terms: IntentTerms): Promise<ChainCallData>;
  /** The intent a mined signalIntent transaction created. */
  signalledIntent(transactionHash: Hex): Promise<SignalledIntent>;
  /** The expiry of an intent still open on chain, for payments that learned of their intent before they kept its expiry. */
  intentExpiry(chain: PaymentChain, intentHash: Hex): Promise<number>;
  fulfilCall(chain: PaymentChain, intentHash: Hex, paymentProof: Hex): ChainCallData;
  cancelCall(chain: PaymentChain, intentHash: Hex): ChainCallData;
  /**
   * The intent as the orchestrator holds it now; null once it has ended (fulfilled, released or
   * cancelled). An orchestrator deployed before extensions (a local chain kept since) answers
   * with a null guardian.
   */
  intentOnChain(chain: PaymentChain, intentHash: Hex): Promise<IntentOnChain | null>;
  /** Whether the relayer can send an extension of `intent` and its guardian can pay the fee. */
  extensionReadiness(chain: PaymentChain, intent: IntentOnChain): Promise<ExtensionReadiness>;
  /** extendIntentExpiry: to be sent from the intent's guardian (ExtensionReadiness.from). */
  extendCall(chain: PaymentChain, intentHash: Hex, additionalSeconds: number): ChainCallData;
  /** What an extension's revert (its data; null when it carried none) means for the action. */
  extensionRevertCode(revertData: Hex | null): IntentExtensionCode;
}
