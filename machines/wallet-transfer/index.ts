/**
 * machines/wallet-transfer: USDC transfers the wallet provider reports in its signed
 * balance webhooks, in canonical form, and the record of each message it sent.
 */
export * from './canonical-transfer.js';
export * from './transfer-machine.js';
export * from './provider-message-machine.js';
