/**
 * machines/wallet-transfer: USDC transfers the wallet provider reports in its signed
 * balance webhooks, in canonical form, and the record of each message it sent.
 */
export { readTransfer, sameTransfer, transferIdentity } from './canonical-transfer.js';
export type { CanonicalTransfer, ReportedTransfer, TransferReading } from './canonical-transfer.js';
export { walletTransferMachine } from './transfer-machine.js';
export type { WalletTransferContext, WalletTransferEvent, WalletTransferInput } from './transfer-machine.js';
export { providerMessageMachine } from './provider-message-machine.js';
export type { ProviderMessageContext, ProviderMessageEvent, ProviderMessageInput } from './provider-message-machine.js';
