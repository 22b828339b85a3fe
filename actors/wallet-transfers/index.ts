/**
 * actors/wallet-transfers: what the wallet provider's signed balance webhooks leave in
 * the store. The `wallet-transfer` kind keeps each canonical USDC transfer once, the
 * `provider-message` kind each message id the provider used (both in actors/kinds/), and
 * `listTransfers` reads a wallet's transfers back for whatever needs them (transaction history).
 */
export { WALLET_TRANSFER_KIND, walletTransferId, walletTransferKind } from '../kinds/wallet-transfer-kind.js';
export type { WalletTransferView } from '../kinds/wallet-transfer-kind.js';
export { PROVIDER_MESSAGE_KIND, providerMessageId, providerMessageKind } from '../kinds/provider-message-kind.js';
export { listTransfers } from './transfer-list.js';
export type { TransferFilter, WalletTransferRow } from './transfer-list.js';
export { secretsProblem } from './provider-secrets.js';
