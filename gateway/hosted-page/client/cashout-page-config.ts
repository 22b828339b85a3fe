import type { CheckoutPageConfig } from './page-config.js';

/**
 * What the server tells the payout checkout page beside the payout: where a development node
 * shows its mail, and, as the order checkout page is told, where a platform session is signed
 * in to and sealed (connecting the customer's account).
 */
export interface CashoutPageConfig extends Pick<CheckoutPageConfig, 'simulatorUrl' | 'attestationServiceUrl' | 'enclave' | 'chainId'> {
  /** Where a development node shows the mail it caught instead of sending (a sign-in code among it); null on every other node. */
  caughtMailUrl: string | null;
}
