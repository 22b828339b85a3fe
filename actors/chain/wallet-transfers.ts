/**
 * A wallet's confirmed USDC transfers as the indexer records them (its TransferHistory
 * RPC), for document 3's transaction history. The indexer records the transfers of
 * watched addresses only: watching a wallet starts a backfill of its past transfers from
 * the first block the indexer reads (a `from_block` of 1 is raised to it), while
 * transfers from the next block on are recorded at once.
 */
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { withDeadline } from '../grpc-call.js';
import {
  Direction,
  type GetStatusResponse,
  type IndexerServiceClient,
  type TransferHistoryResponse,
  type WatchAddressesResponse,
} from '../../proto/gen/peer/indexer/v1/indexer.js';
import { PlatformError } from '../errors/platform-error.js';

/** The most TransferHistory answers at once. */
export const HISTORY_LIMIT = 1000;
/** Below every indexer's start block, so a watch backfills from wherever the indexer starts. */
const FROM_THE_START = 1n;

export interface WalletTransfer {
  txHash: string;
  blockNumber: number;
  logIndex: number;
  /** Seconds since the Unix epoch: the block's time. */
  timestamp: number;
  from: string;
  to: string;
  value: bigint;
  /** From the wallet's side: money leaving it, or arriving (a transfer to oneself arrives). */
  direction: 'SEND' | 'DEPOSIT';
}

export interface WalletTransferPage {
  /** EIP-55 checksummed. */
  wallet: string;
  chainId: number;
  tokenContract: string;
  /** Newest first. */
  transfers: WalletTransfer[];
}

/** The indexer did not answer in time or is not serving: worth retrying shortly. */
export class IndexerUnavailableError extends PlatformError {
  override readonly name = 'IndexerUnavailableError';
  readonly code = 'INDEXER_UNAVAILABLE';
}

const UNAVAILABLE = new Set<number>([GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.CANCELLED]);

export class WalletTransfers {
  #chain: Promise<{ chainId: number; tokenContract: string }> | undefined;

  constructor(private readonly client: IndexerServiceClient) {}

  /** The chain and token the indexer follows: asked once, since an indexer never changes chain. */
  chain(): Promise<{ chainId: number; tokenContract: string }> {
    this.#chain ??= this.#call<GetStatusResponse>((options, done) => this.client.getStatus({}, new Metadata(), options, done)).then(
      (status) => ({ chainId: Number(status.chainId), tokenContract: status.usdc }),
      (error: unknown) => {
        this.#chain = undefined;
        throw error;
      },
    );
    return this.#chain;
  }

  /** Has the indexer record the wallet's transfers, backfilling its past; watching it again changes nothing. */
  async watch(wallet: string): Promise<void> {
    await this.#call<WatchAddressesResponse>((options, done) =>
      this.client.watchAddresses({ addresses: [wallet], fromBlock: FROM_THE_START }, new Metadata(), options, done),
    );
  }

  /** The newest HISTORY_LIMIT transfers; a wallet the indexer does not watch yet is watched first. */
  async history(wallet: string): Promise<WalletTransferPage> {
    try {
      return page(await this.#history(wallet));
    } catch (error) {
      if ((error as ServiceError).code !== GrpcStatus.FAILED_PRECONDITION) throw error;
    }
    await this.watch(wallet);
    return page(await this.#history(wallet));
  }

  #history(wallet: string): Promise<TransferHistoryResponse> {
    return this.#call((options, done) => this.client.transferHistory({ wallet, limit: HISTORY_LIMIT }, new Metadata(), options, done));
  }

  async #call<Res>(invoke: Parameters<typeof withDeadline<Res>>[0]): Promise<Res> {
    try {
      return await withDeadline(invoke);
    } catch (error) {
      if (UNAVAILABLE.has((error as ServiceError).code))
        throw new IndexerUnavailableError(`the indexer did not answer: ${(error as Error).message}`, { cause: error });
      throw error;
    }
  }
}

function page(response: TransferHistoryResponse): WalletTransferPage {
  return {
    wallet: response.wallet,
    chainId: Number(response.chainId),
    tokenContract: response.tokenContract,
    transfers: response.transfers.map((transfer) => ({
      txHash: transfer.transactionHash,
      blockNumber: Number(transfer.blockNumber),
      logIndex: transfer.logIndex,
      timestamp: Number(transfer.blockTimestamp),
      from: transfer.from,
      to: transfer.to,
      value: BigInt(transfer.value),
      direction: transfer.direction === Direction.DIRECTION_SEND ? 'SEND' : 'DEPOSIT',
    })),
  };
}
