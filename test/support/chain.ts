/**
 * A local anvil with our contracts, an indexer over it on a loopback port, and
 * small helpers to make things happen on chain, for the indexer's tests.
 */
import { Metadata } from '@grpc/grpc-js';
import { createPublicClient, createWalletClient, http, type Address, type Hash, type PublicClient } from 'viem';
import { EmbeddedStore, createLogger, type Store } from '../../actors/index.js';
import { indexerClient, withDeadline } from '../../actors/chain/indexer-client.js';
import { openIndexerCollections } from '../../deploy/chain.js';
import { escrowAbi, mockUSDCAbi } from '../../indexer/chain/artifacts/index.js';
import { startAnvil, type Anvil } from '../../indexer/chain/anvil.js';
import { deployContracts, type ChainDeployment } from '../../indexer/chain/deploy.js';
import { anvilTestAccount } from '../../indexer/chain/dev-accounts.js';
import { rpcChain } from '../../indexer/chain/rpc.js';
import { startIndexer, type IndexerOptions, type RunningIndexer } from '../../indexer/indexer-server.js';
import type { ChainFact, IndexerServiceClient } from '../../proto/gen/peer/indexer/v1/indexer.js';

export const deployer = anvilTestAccount(0);
export const witness = anvilTestAccount(1);
export const alice = anvilTestAccount(2);
export const bob = anvilTestAccount(3);
export const carol = anvilTestAccount(4);

export interface TestChain {
  anvil: Anvil;
  deployment: ChainDeployment;
  client: PublicClient;
  store: Store;
  indexer: RunningIndexer;
  grpc: IndexerServiceClient;
  /** Restarts the indexer over the same store and address, as a replaced process would. */
  restartIndexer(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestChain(options: Partial<Pick<IndexerOptions, 'confirmations' | 'batchBlocks' | 'reorgDepth'>> = {}): Promise<TestChain> {
  const anvil = await startAnvil();
  const deployment = await deployContracts(anvil.rpcUrl, { deployer, witness: witness.address });
  const client = createPublicClient({ chain: rpcChain(anvil.rpcUrl, anvil.chainId), transport: http(anvil.rpcUrl) }) as PublicClient;
  const store = new EmbeddedStore();
  const start = async (address = '127.0.0.1:0') =>
    startIndexer({
      client,
      contracts: deployment,
      collections: await openIndexerCollections(store, deployment.chainId),
      logger: createLogger({ level: 'silent' }),
      address,
      startBlock: Number(deployment.deployBlock),
      pollMs: 20,
      ...options,
    });
  const chain: TestChain = {
    anvil,
    deployment,
    client,
    store,
    indexer: await start(),
    grpc: null as unknown as IndexerServiceClient,
    async restartIndexer() {
      await chain.indexer.stop();
      // The same address, so clients reconnect by themselves.
      chain.indexer = await start(chain.indexer.address);
    },
    async stop() {
      chain.grpc.close();
      await chain.indexer.stop();
      await anvil.stop();
    },
  };
  chain.grpc = indexerClient(chain.indexer.address);
  return chain;
}

function wallet(chain: TestChain, account = deployer) {
  return createWalletClient({ account, chain: rpcChain(chain.anvil.rpcUrl, chain.anvil.chainId), transport: http(chain.anvil.rpcUrl) });
}

async function mined(chain: TestChain, hash: Hash): Promise<void> {
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
}

export async function mint(chain: TestChain, to: Address, amount: bigint): Promise<void> {
  await mined(chain, await wallet(chain).writeContract({ address: chain.deployment.usdc, abi: mockUSDCAbi, functionName: 'mint', args: [to, amount] }));
}

export async function transfer(chain: TestChain, from: typeof alice, to: Address, amount: bigint): Promise<void> {
  await mined(chain, await wallet(chain, from).writeContract({ address: chain.deployment.usdc, abi: mockUSDCAbi, functionName: 'transfer', args: [to, amount] }));
}

export async function createDeposit(chain: TestChain, maker: typeof alice, amount: bigint): Promise<void> {
  const client = wallet(chain, maker);
  await mined(chain, await client.writeContract({ address: chain.deployment.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [chain.deployment.escrow, amount] }));
  const range = { min: 1_000_000n, max: amount };
  const zero = '0x0000000000000000000000000000000000000000';
  await mined(
    chain,
    await client.writeContract({ address: chain.deployment.escrow, abi: escrowAbi, functionName: 'createDeposit', args: [chain.deployment.usdc, amount, range, zero, zero] }),
  );
}

export async function mine(chain: TestChain, blocks = 1): Promise<void> {
  await chain.client.request({ method: 'anvil_mine' as never, params: [`0x${blocks.toString(16)}`] as never });
}

export async function watch(chain: TestChain, addresses: Address[], fromBlock = 0n): Promise<string[]> {
  const response = await withDeadline<{ added: string[] }>((options, done) => chain.grpc.watchAddresses({ addresses, fromBlock }, new Metadata(), options, done));
  return response.added;
}

/** Reads the fact stream from `afterSequence` until `count` facts have come, or fails after `timeoutMs`. */
export function readFacts(chain: TestChain, afterSequence: number, count: number, timeoutMs = 15_000): Promise<ChainFact[]> {
  return new Promise((resolve, reject) => {
    const facts: ChainFact[] = [];
    const stream = chain.grpc.streamFacts({ afterSequence: BigInt(afterSequence) });
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
