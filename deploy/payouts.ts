/**
 * The payouts of a node (document 2): the payout kind with its effects, and the settings its
 * creates are checked with. Funding goes through the conversion side's funding provider
 * (deploy/conversions.ts) and is counted from the settlement chain's receipts; customers'
 * wallets come from the wallet provider. A node without a provider or a chain still serves
 * reads and lists, and its creates fail to prepare with PAYOUT_BRIDGE_QUOTE_FAILED.
 */
import type { DeliveryReader } from '../actors/adapters/conversion/conversion-provider.js';
import type { FundingProvider } from '../actors/adapters/conversion/funding-provider.js';
import type { CustomerWalletProvider } from '../actors/adapters/wallet-provider/customer-wallets.js';
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
