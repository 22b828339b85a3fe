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
import { LocalPayoutSigners } from '../actors/adapters/wallet-provider/local-payout-signers.js';
import type { Store } from '../actors/store/store.js';
import { erc20Abi, getAddress, type PublicClient } from 'viem';
import type { IndexedChain } from './chain.js';
import type { Config } from '../actors/config.js';
import { localWalletRoot } from '../indexer/chain/dev-accounts.js';
import type { ChainSubject } from '../actors/chain/chain-facts.js';
import { payoutKind } from '../actors/kinds/payout-kind.js';
import type { DeliveryClaims } from '../actors/payments/delivery-claims.js';
import { payoutEffects, type WalletBalances } from '../actors/payouts/payout-effects.js';
import type { PayoutListingDependencies } from '../actors/payouts/payout-listing.js';
import type { PayoutSendDependencies } from '../actors/payouts/payout-sends.js';
import type { PayoutBridgeDependencies } from '../actors/payouts/payout-bridges.js';
import { withEffects, type ActorKind } from '../actors/runtime/actor-kind.js';
import type { PayoutSettingsOfNode } from '../gateway/payouts/create-payout.js';
import type { AccountConnections } from '../gateway/cashout/account-connection.js';
import { orchestratorAbi } from '../indexer/chain/index.js';
import type { PaymentChain } from '../machines/payment/index.js';

export interface PayoutParts {
  funding: FundingProvider | null;
  wallets: CustomerWalletProvider;
  deliveries: DeliveryReader;
  claims: DeliveryClaims;
  settlement: { chain: PaymentChain; usdc: `0x${string}` } | null;
  watch: ((subject: ChainSubject, owner: { kind: string; id: string }) => Promise<void>) | null;
  listings: PayoutListingDependencies | null;
  balances: WalletBalances | null;
  sends: PayoutSendDependencies | null;
  bridges: PayoutBridgeDependencies | null;
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

/** Whether the local stand-in may hold customers' wallets: its keys are public, so only on the local chain or when asked for. */
const standsIn = (config: Pick<Config, 'LOCAL_EMBEDDED_WALLETS'>, chain: { localChain: unknown } | null) =>
  Boolean(chain?.localChain || config.LOCAL_EMBEDDED_WALLETS);

/**
 * The wallet provider's payout signer over customers' wallets (the local stand-in,
 * LocalPayoutSigners, which signs only under the payout-only policy), where the stand-in may
 * serve and the chain has the batch executor and deposit assertions the policy names; null
 * elsewhere. It also makes the customers' wallets (customerWalletsOf).
 */
export async function payoutSignersOf(
  config: Pick<Config, 'LOCAL_EMBEDDED_WALLETS' | 'CHAIN_BATCH_EXECUTOR_ADDRESS' | 'CHAIN_DEPOSIT_ASSERTIONS_ADDRESS'>,
  chain: IndexedChain | null,
  store: Store,
  now: () => string,
): Promise<LocalPayoutSigners | null> {
  if (!chain || !standsIn(config, chain)) return null;
  const batchExecutor = chain.localChain?.batchExecutor ?? config.CHAIN_BATCH_EXECUTOR_ADDRESS;
  const depositAssertions = chain.localChain?.depositAssertions ?? config.CHAIN_DEPOSIT_ASSERTIONS_ADDRESS;
  if (!batchExecutor || !depositAssertions) return null;
  return LocalPayoutSigners.open({
    customers: new LocalCustomerWallets(localWalletRoot()),
    store,
    targets: {
      chainId: chain.contracts.chainId,
      usdc: getAddress(chain.contracts.usdc),
      escrow: getAddress(chain.contracts.escrow),
      depositAssertions: getAddress(depositAssertions),
      batchExecutor: getAddress(batchExecutor),
    },
    now,
  });
}

/**
 * Where payout customers' wallets come from. The local stand-in derives them from anvil's
 * public mnemonic, so anyone could spend what lands in them: it serves the local chain, or a
 * node that asks for it with LOCAL_EMBEDDED_WALLETS (refused in production), as makers'
 * embedded wallets do (deploy/deposits.ts); through the payout signer when the node has one,
 * so the checkout can sign for the wallets it made. Any other node has no wallet provider
 * client yet, and its payouts fail to prepare with PAYOUT_EMBEDDED_WALLET_FAILED rather than
 * pay into a wallet whose key is public.
 */
export function customerWalletsOf(
  config: Pick<Config, 'LOCAL_EMBEDDED_WALLETS'>,
  chain: { localChain: unknown } | null,
  signers: LocalPayoutSigners | null = null,
): CustomerWalletProvider {
  if (signers) return signers;
  if (standsIn(config, chain)) return new LocalCustomerWallets(localWalletRoot());
  return {
    walletFor: async () => {
      throw new CustomerWalletUnavailable('this node has no wallet provider client: payout customers’ wallets cannot be made');
    },
  };
}

/** USDC balances read from the settlement chain's USDC contract. */
export function viemBalances(client: PublicClient, usdc: `0x${string}`): WalletBalances {
  return {
    usdcOf: (address) => client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
  };
}

/**
 * How the checkout checks a connected account's identity attestation: signed by an enclave
 * signer the node trusts, in the domain of the chain's payment verifier (the orchestrator's, read
 * once). Null without a chain or a trusted signer: nothing can be connected there.
 */
export function accountConnectionsOf(chain: IndexedChain | null, signers: readonly `0x${string}`[]): AccountConnections | null {
  if (!chain || signers.length === 0) return null;
  let verifier: Promise<`0x${string}`> | null = null;
  return {
    chainId: chain.contracts.chainId,
    signers,
    verifier: () =>
      (verifier ??= chain.client
        .readContract({ address: chain.contracts.orchestrator, abi: orchestratorAbi, functionName: 'verifier' })
        .catch((error: unknown) => {
          verifier = null;
          throw error;
        })),
  };
}
