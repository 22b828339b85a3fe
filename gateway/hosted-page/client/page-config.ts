import type { TrustedEnclave } from './enclave-seal.js';

/** What the server tells the checkout page beside the order: where the buyer's proof goes, and whom to trust with it. */
export interface CheckoutPageConfig {
  /** The payment-platform simulator's buyer API, in the embedded default; null where customers use the real platforms. */
  simulatorUrl: string | null;
  /** The local conversion provider's buyer API (a test wallet on the local chain), in the embedded default; null elsewhere. */
  conversionSimulatorUrl: string | null;
  /** document 1's attestation.serviceUrl: where the page fetches the attestation document. */
  attestationServiceUrl: string | null;
  /** The enclave the page may seal to: its published measurement and the witnesses the chain registered. */
  enclave: TrustedEnclave | null;
  /** The chain intents are signalled on: sealed material is bound to it. */
  chainId: number | null;
}
