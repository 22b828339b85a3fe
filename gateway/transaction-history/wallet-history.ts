/**
 * Document 3's transaction history of the signed-in wallet (docs/transaction-history.md):
 * its confirmed direct USDC transfers on the chain the node's indexer follows, read
 * from the indexer's TransferHistory. Another chain or token is not found here; a node
 * without a chain, or whose indexer does not answer, is unavailable.
 */
import type { WalletTransfers } from '../../actors/chain/wallet-transfers.js';
import { formatUsdc } from '../../machines/money.js';
import { ApiError } from '../envelope.js';
import type { MakerWallet } from '../middleware/bearer-auth.js';
import { chainKeyOf } from '../wallet-auth/maker-chains.js';

/** The one token the indexer records. */
const TOKEN = 'usdc';

export class WalletHistory {
  constructor(private readonly transfers: WalletTransfers | null) {}

  async read(wallet: MakerWallet, chain: string, token: string) {
    if (!this.transfers) throw new ApiError(503, 'This node reads no chain, so it has no transaction history', 'TRANSACTION_HISTORY_UNAVAILABLE');
    const { chainId } = await this.transfers.chain();
    const key = chainKeyOf(chainId);
    if (chain.toLowerCase() !== key) throw new ApiError(404, `This node has the history of chain ${key} only`, 'CHAIN_NOT_SUPPORTED');
    if (token.toLowerCase() !== TOKEN) throw new ApiError(404, `This node has the history of ${TOKEN} only`, 'TOKEN_NOT_SUPPORTED');
    const page = await this.transfers.history(wallet.address);
    return {
      walletAddress: page.wallet,
      chain: key,
      chainId: page.chainId,
      tokenContract: page.tokenContract,
      assetTransfers: page.transfers.map((transfer) => ({
        chain: key,
        tokenContract: page.tokenContract,
        txHash: transfer.txHash,
        blockNumber: transfer.blockNumber,
        timestamp: new Date(transfer.timestamp * 1000).toISOString(),
        from: transfer.from,
        to: transfer.to,
        type: transfer.direction,
        amountRaw: transfer.value.toString(),
        amountFormatted: formatUsdc(transfer.value),
      })),
    };
  }
}
