/**
 * The payouts of a node (document 2): the payout kind with its effects, and the settings its
 * creates are checked with. Funding goes through the conversion side's funding provider
 * (deploy/conversions.ts) and is counted from the settlement chain's receipts; customers'
 * wallets come from the wallet provider. A node without a provider or a chain still serves
 * reads and lists, and its creates fail to prepare with PAYOUT_BRIDGE_QUOTE_FAILED.
 */
import type { DeliveryReader } from '../actors/adapters/conversion/conversion-provider.js';
import type { FundingProvider } from '../actors/adapters/conversion/funding-provider.js';
import { CustomerWalletUnavailable, type CustomerWalletProvider } from '../actors/adapters/wallet-provider/customer-wallets.js';
import { LocalCustomerWallets } from '../actors/adapters/wallet-provider/local-customer-wallets.js';
import type { Config } from '../actors/config.js';
import { localWalletRoot } from '../indexer/chain/dev-accounts.js';
import type { ChainSubject } from '../actors/chain/chain-facts.js';
import { payoutKind } from '../actors/kinds/payout-kind.js';
import type { DeliveryClaims } from '../actors/payments/delivery-claims.js';
import { payoutEffects } from '../actors/payouts/payout-effects.js';
import { withEffects, type ActorKind } from '../actors/runtime/actor-kind.js';
import type { PayoutSettingsOfNode } from '../gateway/payouts/create-payout.js';
import type { PaymentChain } from '../machines/payment/index.js';

export interface PayoutParts {
  funding: FundingProvider | null;
  wallets: CustomerWalletProvider;
  deliveries: DeliveryReader;
  claims: DeliveryClaims;
  settlement: { chain: PaymentChain; usdc: `0x${string}` } | null;
  watch: ((subject: ChainSubject, owner: { kind: string; id: string }) => Promise<void>) | null;
  settings: PayoutSettingsOfNode;
}

export interface PayoutSide {
  kind: ActorKind;
  settings: PayoutSettingsOfNode;
  funding: FundingProvider | null;
}

export function payoutSide(parts: PayoutParts): PayoutSide {
  return {
    kind: withEffects(payoutKind, payoutEffects(parts)),
    settings: parts.settings,
    funding: parts.funding,
  };
}

/**
 * Where payout customers' wallets come from. The local stand-in derives them from anvil's
 * public mnemonic, so anyone could spend what lands in them: it serves the local chain, or a
 * node that asks for it with LOCAL_EMBEDDED_WALLETS (refused in production), as makers'
 * embedded wallets do (deploy/deposits.ts). Any other node has no wallet provider client yet,
 * and its payouts fail to prepare with PAYOUT_EMBEDDED_WALLET_FAILED rather than pay into a
 * wallet whose key is public.
 */
export function customerWalletsOf(config: Pick<Config, 'LOCAL_EMBEDDED_WALLETS'>, chain: { localChain: unknown } | null): CustomerWalletProvider {
  if (chain?.localChain || config.LOCAL_EMBEDDED_WALLETS) return new LocalCustomerWallets(localWalletRoot());
  return {
    walletFor: async () => {
      throw new CustomerWalletUnavailable('this node has no wallet provider client: payout customers’ wallets cannot be made');
    },
  };
}
