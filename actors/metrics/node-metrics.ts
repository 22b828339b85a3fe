/**
 * What the node's other sides report beside the runtime: the gateway's requests, webhook
 * attempts, the relayer's mined transactions and calls to the attestation service. They
 * reach it through the actor system (`system.metrics`) and an effect's context, where the
 * runtime's metrics already flow. The same rule holds as in runtime-metrics.ts: every
 * string argument is a label value from a small, fixed set.
 */
import type { RuntimeMetrics } from './runtime-metrics.js';

export type WebhookAttemptOutcome =
  | 'ok'
  | 'http_error'
  | 'timeout'
  | 'connection_failed'
  | 'destination_forbidden'
  | 'invalid_url'
  | 'tls_error'
  | 'endpoint_inactive';

export type AttestationMethod =
  | 'getAttestationDocument'
  | 'verifyPayment'
  | 'verifyPaymentProof'
  | 'resolveSellerPayment'
  | 'registerIdentity'
  | 'verifyDispute'
  | 'listSellerCredentials';

export interface NodeMetrics extends RuntimeMetrics {
  /**
   * One HTTP request answered by the gateway. `route` is the template that served it
   * (`/api/v1/orders/:orderId`) or `unmatched`, never the path as sent; `method` one of
   * the HTTP methods the gateway knows or `OTHER`.
   */
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  /** One attempt at sending a webhook delivery, and how it ended. */
  webhookAttempt(outcome: WebhookAttemptOutcome, seconds: number): void;
  /** A relayer transaction's receipt was read: mined, succeeded or reverted, with the gas it used at the price it paid (wei). */
  relayerReceipt(wallet: string, succeeded: boolean, gasUsed: bigint, effectiveGasPrice: bigint): void;
  /** One call to the attestation service: `outcome` is `ok`, the gRPC status name in lower case, or `untrusted` (its document or signer failed the check). */
  attestationCall(method: AttestationMethod, outcome: string, seconds: number): void;
}

/** Reports nothing: the default wherever no metrics were asked for. */
export const noMetrics: NodeMetrics = {
  ask() {},
  turn() {},
  conflict() {},
  effect() {},
  timerFired() {},
  storeOperation() {},
  leaseRenewFailure() {},
  shardsHeld() {},
  shardCount() {},
  observe() {},
  httpRequest() {},
  webhookAttempt() {},
  relayerReceipt() {},
  attestationCall() {},
};
