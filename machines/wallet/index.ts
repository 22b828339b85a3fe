/** machines/wallet: a sending key on a chain, handing out nonces in order (the relayer's `wallet` actor). */
export * from './wallet-types.js';
export * from './wallet-machine.js';
