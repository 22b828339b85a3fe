/**
 * The relayer's sending wallets as a scrape reads them (`peer_relayer_nonce_next`,
 * `peer_relayer_nonce_mined`, `peer_relayer_transactions_under_way`): the nonce each
 * wallet actor gives out next, the chain's count of its mined transactions, and the
 * transactions holding a nonce. A next nonce above the mined one that stays there while
 * the mined one does not move is a stuck nonce: every later transaction waits behind it.
 *
 * A wallet is a label: a node sends from the few keys RELAYER_PRIVATE_KEYS names, so the
 * set is small and fixed for the life of the process.
 */
import { walletId, type Hex } from '../../machines/index.js';
import type { RelayerChain } from '../adapters/chain/relayer-chain.js';
import { transactionKind } from '../kinds/transaction-kind.js';
import { walletKind } from '../kinds/wallet-kind.js';
import type { RelayerWalletReading } from '../metrics/runtime-metrics.js';
import type { ActorSystem } from '../runtime/actor-system.js';

/** Transactions whose nonce is theirs until they end (as nonce-reconciler.ts counts them). */
const UNDER_WAY = ['PREPARED', 'SUBMITTED'];

export async function relayerWalletReadings(
  system: Pick<ActorSystem, 'views'>,
  chain: Pick<RelayerChain, 'chainId' | 'wallets' | 'nonce'>,
): Promise<Record<string, RelayerWalletReading>> {
  const readings = await Promise.all(chain.wallets.map(async (address) => [address.toLowerCase(), await readingOf(system, chain, address)] as const));
  return Object.fromEntries(readings);
}

async function readingOf(
  system: Pick<ActorSystem, 'views'>,
  chain: Pick<RelayerChain, 'chainId' | 'wallets' | 'nonce'>,
  address: Hex,
): Promise<RelayerWalletReading> {
  const [saved, mined, underWay] = await Promise.all([
    system.views(walletKind).findOne({ _id: walletId(chain.chainId, address) }),
    chain.nonce(address, 'latest'),
    system.views(transactionKind).count({ 'view.status': { $in: UNDER_WAY }, 'view.from': address, 'view.chainId': chain.chainId }),
  ]);
  // A wallet that never sent has given out nothing: its next nonce is the chain's.
  return { nextNonce: saved ? Number(saved.view.nextNonce) : Number(mined), minedNonce: Number(mined), underWay };
}
