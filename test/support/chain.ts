/**
 * A local anvil with our contracts, an indexer over it on a loopback port, and
 * small helpers to make things happen on chain, for the indexer's tests.
 */
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import type { Address, PublicClient } from 'viem';
import { EmbeddedStore, createLogger, type Store } from '../../actors/index.js';
import { indexerClient } from '../../actors/adapters/indexer/indexer-client.js';
import { withDeadline } from '../../actors/grpc-call.js';
import { openIndexerCollections } from '../../deploy/chain.js';
import { mockUSDCAbi } from '../../indexer/chain/artifacts/index.js';
import { anvilTestAccount } from '../../indexer/chain/dev-accounts.js';
import { startLocalChain, type LocalChain } from '../../indexer/chain/local-chain.js';
import { startIndexer, type IndexerOptions, type RunningIndexer } from '../../indexer/indexer-server.js';
import type { ChainFact, IndexerServiceClient } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { depositOn } from './local-deposit.js';

export const witness = anvilTestAccount(1);
export const alice = anvilTestAccount(2);
export const bob = anvilTestAccount(3);
export const carol = anvilTestAccount(4);

export interface TestChain {
  /** anvil with our contracts deployed, the witness being `witness`. */
  local: LocalChain;
  client: PublicClient;
  store: Store;
  indexer: RunningIndexer;
  grpc: IndexerServiceClient;
  /** Restarts the indexer over the same store and address, as a replaced process would, optionally with other settings. */
  restartIndexer(overrides?: IndexerSettings): Promise<void>;
  /** Replaces the indexer at the same address with one over a new, empty fact log that starts at `startBlock`, as a rebuilt indexer would. */
  replaceLog(startBlock: number): Promise<void>;
  stop(): Promise<void>;
}

type IndexerSettings = Partial<Pick<IndexerOptions, 'confirmations' | 'batchBlocks' | 'reorgDepth' | 'pollMs'>>;

export async function startTestChain(options: IndexerSettings = {}): Promise<TestChain> {
  const local = await startLocalChain({ witness: witness.address });
  const client = local.publicClient as PublicClient;
  const store = new EmbeddedStore();
  const start = async (address = '127.0.0.1:0', overrides: IndexerSettings = {}, logStore: Store = store, startBlock = Number(local.deployBlock)) =>
    startIndexer({
      client,
      contracts: local,
      collections: await openIndexerCollections(logStore, local.chainId),
      logger: createLogger({ level: 'silent' }),
      address,
      startBlock,
      pollMs: 20,
      ...options,
      ...overrides,
    });
  const indexer = await start();
  const chain: TestChain = {
    local,
    client,
    store,
    indexer,
    grpc: indexerClient(indexer.address),
    async restartIndexer(overrides) {
      await chain.indexer.stop();
      // The same address, so clients reconnect by themselves.
      chain.indexer = await start(chain.indexer.address, overrides);
    },
    async replaceLog(startBlock) {
      await chain.indexer.stop();
      chain.indexer = await start(chain.indexer.address, {}, new EmbeddedStore(), startBlock);
    },
    async stop() {
      chain.grpc.close();
      await chain.indexer.stop();
      await local.stop();
    },
  };
  return chain;
}

export async function mint(chain: TestChain, to: Address, amount: bigint): Promise<void> {
  await chain.local.mintUsdc(to, amount);
}

export async function transfer(chain: TestChain, from: typeof alice, to: Address, amount: bigint): Promise<void> {
  await chain.local.confirm(
    await chain.local.walletFor(from).writeContract({ address: chain.local.usdc, abi: mockUSDCAbi, functionName: 'transfer', args: [to, amount] }),
  );
}

export async function createDeposit(chain: TestChain, maker: typeof alice, amount: bigint): Promise<void> {
  await depositOn(chain.local, maker, amount);
}

export async function mine(chain: TestChain, blocks = 1): Promise<void> {
  await chain.local.testClient.mine({ blocks });
}

export async function watch(chain: TestChain, addresses: Address[], fromBlock = 0n): Promise<string[]> {
  const response = await withDeadline<{ added: string[] }>((options, done) =>
    chain.grpc.watchAddresses({ addresses, fromBlock }, new Metadata(), options, done),
  );
  return response.added;
}

/** Reads the fact stream from `afterSequence` until `count` facts have come, or fails after `timeoutMs`. */
export function readFacts(chain: TestChain, afterSequence: number, count: number, timeoutMs = 15_000): Promise<ChainFact[]> {
  return new Promise((resolve, reject) => {
    const facts: ChainFact[] = [];
    const stream = chain.grpc.streamFacts({ afterSequence: BigInt(afterSequence), logEpoch: '' });
    const timer = setTimeout(() => {
      stream.cancel();
      reject(new Error(`only ${facts.length} of ${count} facts arrived: ${facts.map((fact) => fact.event?.$case).join(', ')}`));
    }, timeoutMs);
    stream.on('data', ({ fact }: { fact: ChainFact }) => {
      facts.push(fact);
      if (facts.length === count) {
        clearTimeout(timer);
        stream.cancel();
        resolve(facts);
      }
    });
    stream.on('error', (error: { code?: number }) => {
      if (facts.length < count) {
        clearTimeout(timer);
        reject(error);
      }
    });
  });
}

/** A unary call to the indexer with a deadline; one that lands on the connection to an indexer just replaced is cancelled, and made again. */
export async function indexerCall<Res>(invoke: Parameters<typeof withDeadline<Res>>[0]): Promise<Res> {
  for (;;) {
    try {
      return await withDeadline<Res>(invoke);
    } catch (error) {
      if ((error as ServiceError).code !== GrpcStatus.CANCELLED) throw error;
    }
  }
}

type GetLogs = PublicClient['getLogs'];
export type GetLogsArgs = Parameters<GetLogs>[0];

/**
 * Starts the test chain's indexer (stopped) again at its address, over a client whose
 * getLogs `intercept` wraps (`real` is the chain's own), as a node behind a flaky or
 * lagging provider would read.
 */
export async function startIndexerWith(
  chain: TestChain,
  intercept: (args: GetLogsArgs, real: GetLogs) => ReturnType<GetLogs>,
  overrides: Partial<IndexerOptions> = {},
): Promise<void> {
  const client = new Proxy(chain.client, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      return key === 'getLogs' ? (args: GetLogsArgs) => intercept(args, value as GetLogs) : value;
    },
  });
  chain.indexer = await startIndexer({
    client,
    contracts: chain.local,
    collections: await openIndexerCollections(chain.store, chain.local.chainId),
    logger: createLogger({ level: 'silent' }),
    address: chain.indexer.address,
    startBlock: Number(chain.local.deployBlock),
    pollMs: 20,
    ...overrides,
  });
}
