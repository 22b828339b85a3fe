/**
 * actors/wallet-transfers: what the wallet provider's signed balance webhooks leave in
 * the store. The `wallet-transfer` kind keeps each canonical USDC transfer once, the
 * `provider-message` kind each message id the provider used (both in actors/kinds/), and
 * `listTransfers` reads a wallet's transfers back for whatever needs them (transaction history).
 */
export * from '../kinds/wallet-transfer-kind.js';
export * from '../kinds/provider-message-kind.js';
export * from './transfer-list.js';
export * from './provider-secrets.js';
