/**
 * Atomic deposit creation on a node, by configuration. It needs the chain the node sends on,
 * its relayer (the sponsor that pays each batch's gas), the batch executor and deposit
 * assertions deployed there, and a wallet provider that signs for makers' embedded wallets.
 * On the local chain all of it is ours: the contracts deploy with the escrow and the local
 * embedded wallets are funded with USDC. Against CHAIN_RPC_URL the contracts are configured, and
 * the local embedded wallets serve a dev chain (LOCAL_EMBEDDED_WALLETS); no client of a real wallet
 * provider exists yet, so otherwise such a node answers atomic-create with 503.
 */
import type { Logger } from 'pino';
import { getAddress, parseUnits } from 'viem';
import type { Config } from '../actors/index.js';
import { LocalEmbeddedWallets, type DepositChain, type EmbeddedWalletProvider } from '../actors/deposits/index.js';
import { localEmbeddedAccount, mockUSDCAbi } from '../indexer/chain/index.js';
import { depositKind, depositKindWith } from '../actors/kinds/index.js';
import { Relayer } from '../actors/relayer/index.js';
import type { ActorKind } from '../actors/runtime/actor-kind.js';
import type { ActorSystem } from '../actors/runtime/actor-system.js';
import type { IndexedChain } from './chain.js';
import { ViemDepositChain } from '../actors/adapters/chain/viem-deposit-chain.js';
import type { RelayerSide } from './relayer.js';

/** How many local embedded wallets the local wallet provider holds, and the USDC each starts with. */
export const LOCAL_EMBEDDED_WALLETS = 5;
const LOCAL_EMBEDDED_USDC = parseUnits('10000', 6);

export interface DepositSide {
  kind: ActorKind;
  chain: DepositChain;
  /** Null when the node knows no wallet provider: requests are answered 503. */
  wallets: EmbeddedWalletProvider | null;
  /** Funds the local embedded wallets once the chain is up; nothing off a local chain. */
  start(): Promise<void>;
}

/**
 * `payoutWallets` are payout customers' wallets, which list their payouts as deposits through
 * the same batches (docs/payout-checkout.md), signed under the payout-only policy.
 */
export function depositSide(
  config: Config,
  chain: IndexedChain | null,
  relaying: RelayerSide | null,
  system: ActorSystem,
  logger: Logger,
  payoutWallets: EmbeddedWalletProvider | null = null,
): DepositSide | null {
  if (!chain || !relaying) return null;
  const local = chain.localChain;
  const executor = local?.batchExecutor ?? config.CHAIN_BATCH_EXECUTOR_ADDRESS;
  const assertions = local?.depositAssertions ?? config.CHAIN_DEPOSIT_ASSERTIONS_ADDRESS;
  if (!executor || !assertions) {
    logger.warn('no CHAIN_BATCH_EXECUTOR_ADDRESS or CHAIN_DEPOSIT_ASSERTIONS_ADDRESS: this node creates no deposits atomically');
    return null;
  }
  const depositChain = new ViemDepositChain(chain.client, {
    chainId: chain.contracts.chainId,
    usdc: getAddress(chain.contracts.usdc),
    escrow: getAddress(chain.contracts.escrow),
    depositAssertions: getAddress(assertions),
    batchExecutor: getAddress(executor),
  });
  const localWallets =
    local || config.LOCAL_EMBEDDED_WALLETS
      ? new LocalEmbeddedWallets(Array.from({ length: LOCAL_EMBEDDED_WALLETS }, (_, index) => localEmbeddedAccount(index)))
      : null;
  if (!localWallets) logger.warn('no wallet provider client: atomic deposit creation answers 503 on this node');
  const makers: EmbeddedWalletProvider = localWallets ?? { wallet: async () => null };
  const kind = depositKindWith({
    chain: depositChain,
    wallets: payoutWallets ? { wallet: async (address) => (await makers.wallet(address)) ?? payoutWallets.wallet(address) } : makers,
    relayer: new Relayer(system),
    deposits: () => system.views(depositKind),
    batchTtlSeconds: BigInt(config.ATOMIC_CREATE_BATCH_TTL_SECONDS),
  });
  return {
    kind,
    chain: depositChain,
    wallets: localWallets,
    async start() {
      if (!local || !localWallets) return;
      // Topped up rather than minted again: a kept local chain continues with the balances its wallets had.
      for (const address of localWallets.addresses) {
        const balance = await local.publicClient.readContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [address] });
        if (balance < LOCAL_EMBEDDED_USDC) await local.mintUsdc(address, LOCAL_EMBEDDED_USDC - balance);
      }
      logger.info({ wallets: localWallets.addresses }, 'local embedded wallets funded with USDC');
    },
  };
}
