/**
 * The relayer of a node, by configuration: the chain it sends on (the one the node
 * opened: CHAIN_RPC_URL or the local anvil), the keys it signs with, and how it treats
 * a sent transaction. Null when the node has no chain or no key to send with.
 */
import type { Logger } from 'pino';
import type { LocalAccount } from 'viem';
import type { Config } from '../actors/index.js';
import { transactionKindFor, walletKind } from '../actors/kinds/index.js';
import { ViemRelayerChain } from '../actors/adapters/chain/viem-relayer-chain.js';
import { relayerAccounts } from '../actors/relayer/index.js';
import type { ActorKind } from '../actors/runtime/actor-kind.js';
import { LOCAL_RELAYER_INDEX, anvilTestAccount, protocolErrorsAbi } from '../indexer/chain/index.js';
import type { IndexedChain } from './chain.js';

export interface RelayerSide {
  kinds: ActorKind[];
  chain: ViemRelayerChain;
}

export function relayerSide(config: Config, chain: IndexedChain | null, logger: Logger): RelayerSide | null {
  if (!chain) return null;
  let accounts: LocalAccount[];
  if (config.RELAYER_PRIVATE_KEYS) accounts = relayerAccounts(config.RELAYER_PRIVATE_KEYS);
  else if (chain.localChain) accounts = [anvilTestAccount(LOCAL_RELAYER_INDEX)];
  else {
    logger.warn('no RELAYER_PRIVATE_KEYS: this node sends no transactions');
    return null;
  }
  const relayerChain = new ViemRelayerChain(chain.contracts.chainId, { client: chain.client, accounts, errorAbi: protocolErrorsAbi });
  const policy = {
    confirmations: config.RELAYER_CONFIRMATIONS,
    checkEveryMs: config.RELAYER_CHECK_MS,
    bumpAfterMs: config.RELAYER_BUMP_AFTER_MS,
    unsentFailMs: config.RELAYER_UNSENT_FAIL_MS,
    maxFeePerGas: config.RELAYER_MAX_FEE_PER_GAS,
  };
  logger.info({ chainId: relayerChain.chainId, wallets: relayerChain.wallets }, 'relayer sends from these wallets');
  return { kinds: [transactionKindFor({ chain: relayerChain, policy }), walletKind], chain: relayerChain };
}
