/**
 * The indexer's gRPC service: the fact stream, address registration, transfer
 * history and status, over the follower and its log.
 */
import { status as Status, type ServerWritableStream, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { getAddress, isAddress } from 'viem';
import {
  ChainFact,
  Direction,
  type Backfill,
  type GetBackfillRequest,
  type GetDepositRequest,
  type GetIntentRequest,
  type GetStatusRequest,
  type ListFactsRequest,
  type GetStatusResponse,
  type IndexerServiceServer,
  type StreamFactsRequest,
  type StreamFactsResponse,
  type TransferHistoryRequest,
  type TransferHistoryResponse,
  type WalletTransfer,
  type WatchAddressesRequest,
  type WatchAddressesResponse,
} from '../proto/gen/peer/indexer/v1/indexer.js';
import type { FactDocument, IndexerCollections } from './fact-store.js';
import type { ChainContracts, Follower } from './follower.js';
import { getDeposit, getIntent, listFacts } from './lookups.js';
import { ServiceError } from './service-error.js';

const PAGE = 500;
const DEFAULT_HISTORY = 100;
const MAX_HISTORY = 1000;

export function indexerService(
  follower: Follower,
  collections: IndexerCollections,
  contracts: ChainContracts,
  confirmations: number,
  logger: Logger,
): IndexerServiceServer {
  return {
    streamFacts: (call) => void streamFacts(call, follower, collections),
    watchAddresses: unary(logger, 'WatchAddresses', async (request: WatchAddressesRequest): Promise<WatchAddressesResponse> => {
      const bad = request.addresses.filter((address) => !isAddress(address, { strict: false }));
      if (request.addresses.length === 0 || bad.length > 0) {
        throw new ServiceError(Status.INVALID_ARGUMENT, bad.length > 0 ? `not addresses: ${bad.join(', ')}` : 'no addresses to watch');
      }
      const { added, backfill } = await follower.watch(request.addresses, Number(request.fromBlock));
      return { added, backfillId: backfill?._id ?? '' };
    }),
    transferHistory: unary(logger, 'TransferHistory', (request: TransferHistoryRequest) => transferHistory(request, follower, collections, contracts)),
    getStatus: unary(logger, 'GetStatus', async (_: GetStatusRequest): Promise<GetStatusResponse> => {
      const health = follower.health();
      return {
        chainId: BigInt(contracts.chainId),
        usdc: contracts.usdc,
        escrow: contracts.escrow,
        orchestrator: contracts.orchestrator,
        headBlock: BigInt(follower.head),
        cursorBlock: BigInt(Math.max(follower.cursor.number, 0)),
        confirmations: BigInt(confirmations),
        lastSequence: BigInt(follower.lastSequence),
        serving: health.serving,
        notServingReason: health.reason ?? '',
        lagBlocks: BigInt(health.lagBlocks),
        logEpoch: follower.epoch,
      };
    }),
    getBackfill: unary(logger, 'GetBackfill', async (request: GetBackfillRequest): Promise<Backfill> => {
      const job = await follower.backfill(request.backfillId);
      if (!job) throw new ServiceError(Status.NOT_FOUND, `no backfill ${request.backfillId}`);
      return {
        backfillId: job._id,
        addresses: job.addresses,
        fromBlock: BigInt(job.fromBlock),
        toBlock: BigInt(job.toBlock),
        nextBlock: BigInt(job.nextBlock),
        done: job.status === 'DONE',
      };
    }),
    listFacts: unary(logger, 'ListFacts', (request: ListFactsRequest) => listFacts(request, collections, follower.epoch)),
    getIntent: unary(logger, 'GetIntent', (request: GetIntentRequest) => getIntent(request, collections)),
    getDeposit: unary(logger, 'GetDeposit', (request: GetDepositRequest) => getDeposit(request, collections, contracts)),
  };
}

function unary<Req, Res>(logger: Logger, method: string, handler: (request: Req) => Promise<Res>) {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    handler(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => {
        if (error instanceof ServiceError) return callback({ code: error.code, details: error.message });
        // The caller only learns INTERNAL, so the cause must be in our log.
        logger.error({ err: error, method }, 'indexer call failed');
        callback({ code: Status.INTERNAL, details: 'indexer error' });
      },
    );
  };
}

/** Pages through the log from the request's cursor, then waits for appends, until the client goes. */
async function streamFacts(
  call: ServerWritableStream<StreamFactsRequest, StreamFactsResponse>,
  follower: Follower,
  collections: IndexerCollections,
): Promise<void> {
  const { logEpoch } = call.request;
  if (logEpoch !== '' && logEpoch !== follower.epoch) {
    // The cursor counts in another log (rebuilt, or another indexer's): its sequence would skip facts here.
    call.emit('error', {
      code: Status.FAILED_PRECONDITION,
      details: `this fact log is ${follower.epoch}; the cursor counts in ${logEpoch}: start over from sequence 0`,
    });
    return;
  }
  let after = Number(call.request.afterSequence);
  let appended: (() => void) | null = null;
  const unsubscribe = follower.onAppend(() => appended?.());
  const gone = new Promise<void>((resolve) => call.once('cancelled', resolve).once('close', resolve));
  let open = true;
  void gone.then(() => {
    open = false;
    appended?.();
  });
  try {
    while (open) {
      const wake = new Promise<void>((resolve) => (appended = resolve));
      const page = await collections.facts.find({ sequence: { $gt: after } }, { sort: { sequence: 1 }, limit: PAGE });
      for (const doc of page) {
        if (!open) break;
        if (!call.write({ fact: { ...ChainFact.fromJSON(doc.fact), logEpoch: follower.epoch } }))
          await Promise.race([new Promise((resolve) => call.once('drain', resolve)), gone]);
        after = doc.sequence;
      }
      if (page.length < PAGE) await wake;
    }
  } catch (error) {
    call.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    unsubscribe();
  }
}

async function transferHistory(
  request: TransferHistoryRequest,
  follower: Follower,
  collections: IndexerCollections,
  contracts: ChainContracts,
): Promise<TransferHistoryResponse> {
  if (!isAddress(request.wallet, { strict: false })) throw new ServiceError(Status.INVALID_ARGUMENT, `not an address: ${request.wallet}`);
  if (request.limit > MAX_HISTORY) throw new ServiceError(Status.INVALID_ARGUMENT, `limit is at most ${MAX_HISTORY}`);
  const wallet = getAddress(request.wallet);
  if (!follower.isWatched(wallet)) throw new ServiceError(Status.FAILED_PRECONDITION, `${wallet} is not watched: register it with WatchAddresses first`);
  const limit = request.limit || DEFAULT_HISTORY;
  const live = { isRetraction: false, retracted: false };
  const key = wallet.toLowerCase();
  // Two indexed reads rather than one $or, which no index answers in order.
  const [sent, received] = await Promise.all([
    collections.facts.find({ from: key, ...live }, { sort: { blockNumber: -1 }, limit }),
    collections.facts.find({ to: key, ...live }, { sort: { blockNumber: -1 }, limit }),
  ]);
  const unique = new Map<string, FactDocument>();
  for (const doc of [...sent, ...received]) unique.set(doc._id, doc);
  const transfers = [...unique.values()]
    .map((doc) => toWalletTransfer(ChainFact.fromJSON(doc.fact), key))
    .sort((a, b) => Number(b.blockNumber - a.blockNumber) || b.logIndex - a.logIndex)
    .slice(0, limit);
  return { wallet, chainId: BigInt(contracts.chainId), tokenContract: contracts.usdc, transfers };
}

function toWalletTransfer(fact: ChainFact, wallet: string): WalletTransfer {
  if (fact.event?.$case !== 'usdcTransfer') throw new Error(`fact ${fact.id} is not a transfer`);
  const { from, to, value } = fact.event.value;
  return {
    transactionHash: fact.transactionHash,
    blockNumber: fact.blockNumber,
    logIndex: fact.logIndex,
    blockTimestamp: fact.blockTimestamp,
    from,
    to,
    value,
    // A transfer to oneself is both; it is shown as the money arriving.
    direction: to.toLowerCase() === wallet ? Direction.DIRECTION_DEPOSIT : Direction.DIRECTION_SEND,
  };
}
