/**
 * What the payment flow needs of the chain, apart from the relayer that sends: the
 * calls to send for an intent (signal with the gating service's approval, fulfil with
 * the attestation, cancel), and the intent a mined signal created. The node implements
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
}
