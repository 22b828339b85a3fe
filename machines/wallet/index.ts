/** machines/wallet: a sending key on a chain, handing out nonces in order (the relayer's `wallet` actor). */
export { walletId } from './wallet-types.js';
export type { MachineAddress, WalletContext, WalletEvent, WalletInput } from './wallet-types.js';
export { nonceHoles, nonceToAssign, reconciledNextNonce, walletMachine } from './wallet-machine.js';
