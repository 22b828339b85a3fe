/**
 * A wallet's stored USDC transfers, read from the `wallet-transfer` views without
 * waking an actor: both directions, newest block first. What document 3's transaction
 * history answers from.
 */
import type { ActorSystem } from '../runtime/actor-system.js';
import type { ViewFilter } from '../runtime/view-collection.js';
import { walletTransferKind, type WalletTransferView } from '../kinds/wallet-transfer-kind.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export interface WalletTransferRow extends WalletTransferView {
  /** From the wallet's side: SEND when it is the sender (a transfer to itself included), DEPOSIT when it is the recipient. */
  direction: 'SEND' | 'DEPOSIT';
}

export interface TransferFilter {
  chainId?: number;
  /** The token contract; any letter case. */
  token?: string;
  limit?: number;
}

export async function listTransfers(system: ActorSystem, wallet: string, filter: TransferFilter = {}): Promise<WalletTransferRow[]> {
  if (!EVM_ADDRESS.test(wallet)) throw new TypeError(`wallet ${JSON.stringify(wallet)} is not a 0x-prefixed 20-byte address`);
  const address = wallet.toLowerCase();
  const query: ViewFilter<WalletTransferView> = { $or: [{ 'view.from': address }, { 'view.to': address }] };
  if (filter.chainId !== undefined) query['view.chainId'] = filter.chainId;
  if (filter.token !== undefined) query['view.token'] = filter.token.toLowerCase();
  const docs = await system.views(walletTransferKind).find(query, {
    sort: { 'view.blockNumber': -1, 'view.logIndex': -1, _id: 1 },
    projection: { view: 1 },
    ...(filter.limit !== undefined ? { limit: filter.limit } : {}),
  });
  return docs.map((doc) => {
    const { view } = doc;
    return { ...view, direction: view.from === address ? 'SEND' : 'DEPOSIT' };
  });
}
