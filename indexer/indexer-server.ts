/**
 * An indexer: the follower over one chain and its gRPC server with the standard
 * health service, which follows the follower's health. Whoever starts it supplies the chain client, the contracts and
 * the collections its log lives in.
 */
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import type { PublicClient } from 'viem';
import { IndexerServiceService } from '../proto/gen/peer/indexer/v1/indexer.js';
import type { IndexerCollections } from './fact-store.js';
import { Follower, type ChainContracts, type Finality } from './follower.js';
import { indexerService } from './indexer-service.js';

export interface IndexerOptions {
  client: PublicClient;
  contracts: ChainContracts;
  collections: IndexerCollections;
  logger: Logger;
  /** host:port to listen on; port 0 takes a free one. */
  address: string;
  startBlock?: number;
  confirmations?: number;
  /** `confirmations` by default; `safe` or `finalized` reads up to the chain's tagged block. */
  finality?: Finality;
  batchBlocks?: number;
  pollMs?: number;
  reorgDepth?: number;
  /** Confirmed blocks the log may trail the chain by before the indexer says NOT_SERVING. */
  maxLagBlocks?: number;
}

export interface RunningIndexer {
  /** host:port it listens on. */
  address: string;
  follower: Follower;
  stop(): Promise<void>;
}

export const INDEXER_SERVICE_NAME = 'peer.indexer.v1.IndexerService';
/** About two minutes of Base blocks. */
export const DEFAULT_MAX_LAG_BLOCKS = 60;

export async function startIndexer(options: IndexerOptions): Promise<RunningIndexer> {
  const confirmations = options.confirmations ?? 0;
  const follower = new Follower({
    client: options.client,
    contracts: options.contracts,
    collections: options.collections,
    logger: options.logger,
    startBlock: options.startBlock ?? 0,
    confirmations,
    finality: options.finality ?? 'confirmations',
    batchBlocks: options.batchBlocks ?? 500,
    pollMs: options.pollMs ?? 250,
    reorgDepth: options.reorgDepth ?? 128,
    maxLagBlocks: options.maxLagBlocks ?? DEFAULT_MAX_LAG_BLOCKS,
  });
  await follower.start();

  const health = new HealthImplementation({ '': 'SERVING', [INDEXER_SERVICE_NAME]: 'SERVING' });
  // A follower that stopped, keeps failing or falls behind makes the indexer NOT_SERVING; the reason is in GetStatus and the log.
  const stopWatchingHealth = follower.onHealthChange(({ serving }) => {
    const status = serving ? 'SERVING' : 'NOT_SERVING';
    health.setStatus('', status);
    health.setStatus(INDEXER_SERVICE_NAME, status);
  });
  const server = new Server();
  server.addService(IndexerServiceService, indexerService(follower, options.collections, options.contracts, confirmations, options.logger));
  health.addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(options.address, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  const host = options.address.slice(0, options.address.lastIndexOf(':'));
  const address = `${host}:${port}`;
  options.logger.info({ address, chainId: options.contracts.chainId, cursor: follower.cursor.number }, 'indexer listening');

  return {
    address,
    follower,
    async stop() {
      stopWatchingHealth();
      health.setStatus('', 'NOT_SERVING');
      health.setStatus(INDEXER_SERVICE_NAME, 'NOT_SERVING');
      await follower.stop();
      // Fact streams never end by themselves, so a graceful shutdown would wait forever; subscribers resume from their cursor.
      server.forceShutdown();
    },
  };
}
