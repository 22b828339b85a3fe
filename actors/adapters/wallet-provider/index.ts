/**
 * actors/adapters/wallet-provider: the provider that holds makers' embedded wallets and signs for
 * them, as a port, with the local stand-in that signs with the node's own dev accounts.
 */
export { LocalEmbeddedWallets } from './embedded-wallets.js';
export type { EmbeddedWallet, EmbeddedWalletProvider } from './embedded-wallets.js';
