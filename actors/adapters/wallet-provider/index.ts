/**
 * actors/adapters/wallet-provider: the provider that holds embedded wallets and signs for them, as
 * ports (makers' wallets, the wallets made for payout customers by e-mail, and the payout signer
 * attached to a customer's wallet under the payout-only policy), with the local stand-ins that
 * sign with keys of anvil's public mnemonic.
 */
export { CustomerWalletUnavailable } from './customer-wallets.js';
export type { CustomerWallet, CustomerWalletProvider } from './customer-wallets.js';
export { LocalEmbeddedWallets } from './embedded-wallets.js';
export type { EmbeddedWallet, EmbeddedWalletProvider } from './embedded-wallets.js';
export { LocalCustomerWallets } from './local-customer-wallets.js';
export { LocalPayoutSigners } from './local-payout-signers.js';
export type { LocalPayoutSignersOptions } from './local-payout-signers.js';
export { PayoutPolicyRefused, PayoutSignerNotAttached, PayoutWalletNotHeld } from './payout-signers.js';
export type { PayoutSignerProvider } from './payout-signers.js';
