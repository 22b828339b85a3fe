/**
 * The wallet provider's side of a payout customer: the embedded wallet made for an e-mail
 * address, or found when the provider already holds one for it, so every payout to the same
 * customer lands in the same wallet, which the customer's checkout later controls.
 */
import { PlatformError } from '../../errors/platform-error.js';

export interface CustomerWallet {
  /** The provider's id for the wallet's owner. */
  userId: string;
  /** The wallet's address on Base, EIP-55. */
  address: `0x${string}`;
}

export interface CustomerWalletProvider {
  /** Made or found by `email` (lower-cased by the caller): asking twice answers the same wallet. */
  walletFor(email: string): Promise<CustomerWallet>;
}

/** The provider could not make or find the wallet now: the merchant retries with the same key. */
export class CustomerWalletUnavailable extends PlatformError {
  override readonly name = 'CustomerWalletUnavailable';
  readonly code = 'CUSTOMER_WALLET_UNAVAILABLE';
}
