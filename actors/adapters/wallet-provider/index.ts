/**
 * actors/adapters/wallet-provider: the provider that holds embedded wallets and signs for them, as
 * ports (makers' wallets, and the wallets made for payout customers by e-mail), with the local
 * stand-ins that sign with keys of anvil's public mnemonic.
 */
export { CustomerWalletUnavailable } from './customer-wallets.js';
export type { CustomerWallet, CustomerWalletProvider } from './customer-wallets.js';
export { LocalEmbeddedWallets } from './embedded-wallets.js';
export type { EmbeddedWallet, EmbeddedWalletProvider } from './embedded-wallets.js';
export { LocalCustomerWallets } from './local-customer-wallets.js';
