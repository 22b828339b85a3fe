/**
 * The chain side of a node, by configuration: an indexer run in this process over
 * a local anvil (the embedded default) or over CHAIN_RPC_URL, or a shared indexer
 * at INDEXER_URL; and the consumer that hands its facts to actors.
 */
import { Metadata } from '@grpc/grpc-js';
import { createPublicClient, http, webSocket, getAddress, type PublicClient } from 'viem';
import type { Logger } from 'pino';
import { retryPolicyOf, type ActorSystem, type Config, type Store } from '../actors/index.js';
import { ChainFacts } from '../actors/chain/chain-facts.js';
import { indexerClient } from '../actors/adapters/indexer/indexer-client.js';
import { withDeadline } from '../actors/grpc-call.js';
import {
  indexerCollectionSpecs,
  type BackfillDocument,
  type CursorDocument,
  type FactDocument,
  type IndexerCollections,
  type WatchedDocument,
} from '../indexer/fact-store.js';
import type { ChainContracts } from '../indexer/follower.js';
import { startIndexer, type RunningIndexer } from '../indexer/indexer-server.js';
import { KeptChainLostError, keptChainFiles, keptDeploymentExists, startLocalChain, type LocalChain, type LocalChainOptions } from '../indexer/chain/index.js';
import { chainMismatch, recordedChain } from './chain-identity.js';
import type { GetStatusResponse, IndexerServiceClient } from '../proto/gen/peer/indexer/v1/indexer.js';

export interface ChainSide {
  chainFacts: ChainFacts;
  /** The indexer's gRPC client, for the node's other readers of it (the liquidity book). */
  client: IndexerServiceClient;
  indexer: RunningIndexer | null;
  localChain: LocalChain | null;
  /** Whether the indexer keeps the fact log current (its GetStatus), and why not; an indexer that does not answer is not serving. */
  indexerHealth(): Promise<{ serving: boolean; reason: string | null }>;
  stop(): Promise<void>;
}

/** The health check must answer quickly even when the indexer does not. */
const INDEXER_STATUS_DEADLINE_MS = 1_000;

export interface IndexedChain {
  client: PublicClient;
  contracts: ChainContracts;
  startBlock: number;
  localChain: LocalChain | null;
}

/** The chain to index: CHAIN_RPC_URL with its contracts, or a fresh local anvil with ours deployed. */
export async function openChain(config: Config, logger: Logger, local: LocalChainOptions = {}): Promise<IndexedChain> {
  if (config.CHAIN_RPC_URL) {
    const transport = config.CHAIN_RPC_URL.startsWith('ws') ? webSocket(config.CHAIN_RPC_URL) : http(config.CHAIN_RPC_URL);
    const client = createPublicClient({ transport }) as PublicClient;
    const contracts = {
      chainId: await client.getChainId(),
      usdc: getAddress(config.CHAIN_USDC_ADDRESS!),
      escrow: getAddress(config.CHAIN_ESCROW_ADDRESS!),
      orchestrator: getAddress(config.CHAIN_ORCHESTRATOR_ADDRESS!),
    };
    return { client, contracts, startBlock: config.INDEXER_START_BLOCK, localChain: null };
  }
  const localChain = await startLocalChain(local);
  logger.info(
    {
      restored: localChain.restored,
      rpcUrl: localChain.rpcUrl,
      chainId: localChain.chainId,
      usdc: localChain.usdc,
      escrow: localChain.escrow,
      orchestrator: localChain.orchestrator,
      verifier: localChain.verifier,
    },
    'local chain started',
  );
  const { chainId, usdc, escrow, orchestrator } = localChain;
  return {
    client: localChain.publicClient as PublicClient,
    contracts: { chainId, usdc, escrow, orchestrator },
    startBlock: Number(localChain.deployBlock),
    localChain,
  };
}

export async function openIndexerCollections(store: Store, chainId: number): Promise<IndexerCollections> {
  const specs = indexerCollectionSpecs(chainId);
  // The store's collections answer every call the indexer declares; only the document types are the indexer's own.
  return {
    facts: await store.collection<FactDocument>(specs.facts),
    state: await store.collection<CursorDocument>(specs.state),
    watched: await store.collection<WatchedDocument>(specs.watched),
    backfills: await store.collection<BackfillDocument>(specs.backfills),
  };
}

export async function startIndexerOn(chain: IndexedChain, store: Store, config: Config, logger: Logger, address: string): Promise<RunningIndexer> {
  return startIndexer({
    client: chain.client,
    contracts: chain.contracts,
    collections: await openIndexerCollections(store, chain.contracts.chainId),
    logger: logger.child({ component: 'indexer' }),
    address,
    startBlock: Math.max(chain.startBlock, config.INDEXER_START_BLOCK),
    confirmations: config.INDEXER_CONFIRMATIONS,
    finality: config.INDEXER_FINALITY,
    batchBlocks: config.INDEXER_BATCH_BLOCKS,
    pollMs: config.INDEXER_POLL_MS,
    reorgDepth: config.INDEXER_REORG_DEPTH,
    maxLagBlocks: config.INDEXER_MAX_LAG_BLOCKS,
  });
}

/**
 * The chain a node opens before its actors start, since the relayer's kinds need it:
 * the one it indexes in-process, or CHAIN_RPC_URL for sending beside a shared
 * indexer. Null when it reads no chain or has none to send on.
 */
export async function openNodeChain(config: Config, logger: Logger, local: LocalChainOptions = {}): Promise<IndexedChain | null> {
  if (!config.INDEXER_ENABLED) return null;
  if (config.INDEXER_URL && !config.CHAIN_RPC_URL) return null;
  return openChain(config, logger, local);
}

/** Where a node keeps its local chain and checks which chain its data was written against: the data folder it owns. */
export interface ChainKeeping {
  store: Store;
  /** The folder the local chain is kept in between runs; unset, a local chain is fresh each start. */
  keptIn?: string;
  dataPlace: string;
  now: () => string;
}

/**
 * openNodeChain over data that remembers a chain: the local chain continued from `keptIn`,
 * and any chain checked against the one the data was written against. A chain that is not
 * that one is closed again, and `problem` says so in one sentence naming the way out.
 */
export async function openKeptNodeChain(
  config: Config,
  logger: Logger,
  local: LocalChainOptions,
  keeping: ChainKeeping,
): Promise<{ chain: IndexedChain | null; problem: string | null }> {
  // A store that remembers a chain over a folder that holds none: deploying a fresh one would only be refused after.
  const startsLocal = config.INDEXER_ENABLED && !config.CHAIN_RPC_URL && !config.INDEXER_URL;
  if (startsLocal && keeping.keptIn !== undefined && !(await keptDeploymentExists(keptChainFiles(keeping.keptIn))) && (await recordedChain(keeping.store))) {
    return {
      chain: null,
      problem: `The data in ${keeping.dataPlace} was written against a local chain that is no longer in ${keeping.keptIn}: live payments are off. Way out: restore that folder, or start with a data folder of its own (DATA_DIR=./data-new npm start).`,
    };
  }
  let chain: IndexedChain | null;
  try {
    chain = await openNodeChain(config, logger, { ...local, ...(keeping.keptIn === undefined ? {} : { keptIn: keeping.keptIn }) });
  } catch (error) {
    if (!(error instanceof KeptChainLostError)) throw error;
    return {
      chain: null,
      problem: `The data in ${keeping.dataPlace} was written against a local chain whose state ${error.files.state} is missing: live payments are off. Way out: restore that file, or start with a data folder of its own (DATA_DIR=./data-new npm start).`,
    };
  }
  if (!chain) return { chain, problem: null };
  const restore = chain.localChain && keeping.keptIn !== undefined ? keptChainFiles(keeping.keptIn).state : undefined;
  const anchorBlock = chain.localChain ? chain.localChain.deployBlock : 0n;
  const problem = await chainMismatch(
    keeping.store,
    { client: chain.client, contracts: chain.contracts, anchorBlock, dataPlace: keeping.dataPlace, ...(restore ? { restore } : {}) },
    keeping.now,
  );
  if (!problem) return { chain, problem };
  await chain.localChain?.stop();
  return { chain: null, problem };
}

/**
 * Null when the node reads no chain (INDEXER_ENABLED=false); a cluster node reads the shared
 * INDEXER_URL, which the configuration requires. `chain` is what openNodeChain opened: without
 * INDEXER_URL it is the chain the in-process indexer follows, and this side stops it.
 */
export async function startChainSide(config: Config, system: ActorSystem, store: Store, logger: Logger, chain: IndexedChain | null): Promise<ChainSide | null> {
  if (!config.INDEXER_ENABLED) return null;
  let indexer: RunningIndexer | null = null;
  const localChain: LocalChain | null = chain?.localChain ?? null;
  let indexerAddress = config.INDEXER_URL;
  if (!indexerAddress) {
    if (!chain) throw new Error('an in-process indexer needs the chain openNodeChain opens');
    indexer = await startIndexerOn(chain, store, config, logger, '127.0.0.1:0');
    indexerAddress = indexer.address;
  }
  const client = indexerClient(indexerAddress);
  const chainFacts = new ChainFacts({ system, store, client, logger: logger.child({ component: 'chain-facts' }), retryPolicy: retryPolicyOf(config) });
  await chainFacts.start();
  // Read at every scrape: peer_indexer_lag_blocks and peer_indexer_serving; an indexer that does not answer leaves them without a sample.
  system.metrics.observe({
    indexer: async () => {
      const status = await withDeadline<GetStatusResponse>((options, done) => client.getStatus({}, new Metadata(), options, done), INDEXER_STATUS_DEADLINE_MS);
      return { lagBlocks: Number(status.lagBlocks), serving: status.serving };
    },
  });
  logger.info({ indexer: indexerAddress, inProcess: indexer !== null }, 'reading chain facts');
  return {
    chainFacts,
    client,
    indexer,
    localChain,
    async indexerHealth() {
      try {
        const status = await withDeadline<GetStatusResponse>(
          (options, done) => client.getStatus({}, new Metadata(), options, done),
          INDEXER_STATUS_DEADLINE_MS,
        );
        return { serving: status.serving, reason: status.serving ? null : status.notServingReason };
      } catch (error) {
        return { serving: false, reason: `the indexer at ${indexerAddress} did not answer: ${(error as Error).message}` };
      }
    },
    async stop() {
      await chainFacts.stop();
      client.close();
      await indexer?.stop();
      await localChain?.stop();
    },
  };
}
