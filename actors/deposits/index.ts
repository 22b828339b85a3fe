/**
 * actors/deposits: what a maker's atomic deposit creation needs besides its machine: the
 * reservation of the next deposit id and the effects that submit and check the batch. The
 * wallet provider that signs for the maker's embedded wallet and the chain it reads are
 * ports in actors/adapters/.
 */
export type { DepositChain } from '../adapters/chain/deposit-chain.js';
export { ATOMIC_CREATE_PURPOSE, depositEffects } from './deposit-effects.js';
export type { DepositEffectsOptions } from './deposit-effects.js';
export { reserveDepositId } from './deposit-ids.js';
export type { ReservationViews } from './deposit-ids.js';
export { LocalEmbeddedWallets } from '../adapters/wallet-provider/embedded-wallets.js';
export type { EmbeddedWallet, EmbeddedWalletProvider } from '../adapters/wallet-provider/embedded-wallets.js';
