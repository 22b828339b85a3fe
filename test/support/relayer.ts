/**
 * A relayer on a local anvil for tests: the transaction and wallet kinds on an embedded
 * system with a test clock, sending from anvil dev account 7, and an owner kind that
 * counts the outcomes it hears.
 */
import { Writable } from 'node:stream';
import { encodeFunctionData, type Address } from 'viem';
import { SystemClock, createLogger, type ActorSystem, type NodeMetrics, type TestClock } from '../../actors/index.js';
import { transactionKindFor, walletKind, type TransactionView } from '../../actors/kinds/index.js';
import { ViemRelayerChain } from '../../actors/adapters/chain/viem-relayer-chain.js';
import { Relayer } from '../../actors/relayer/index.js';
import { mockUSDCAbi, protocolErrorsAbi } from '../../indexer/chain/index.js';
import { anvilTestAccount } from '../../indexer/chain/dev-accounts.js';
import { startLocalChain, type LocalChain } from '../../indexer/chain/local-chain.js';
import type { SendingPolicy } from '../../machines/transaction/index.js';
import { outcomeOwnerKind, type OwnerView } from './outcome-owner-kind.js';
import { startTestSystem, type TestSystem } from './test-node.js';

export const relayerAccount = anvilTestAccount(7);

export const TEST_POLICY: SendingPolicy = { confirmations: 1, checkEveryMs: 1_000, bumpAfterMs: 5_000, maxFeePerGas: 1_000_000_000_000n };

export interface TestRelayer extends TestSystem {
  local: LocalChain;
  chain: ViemRelayerChain;
  relayer: Relayer;
  /** Every log line the node wrote, to check that no key ever reaches one. */
  logs: string[];
  /** Opens an owner actor that will count the outcomes it is told. */
  owner(id: string): Promise<{ kind: string; id: string }>;
  outcomesOf(ownerId: string): Promise<OwnerView['outcomes']>;
  view(id: string): Promise<TransactionView>;
  /** The relayer key's mined nonce on chain. */
  minedNonce(): Promise<number>;
  stop(): Promise<void>;
}

/** `realTime`: the system clock, with timers polled every 20 ms, for benchmarks that wait on them. `metrics`: what the system reports to. */
export async function startTestRelayer(options: { policy?: Partial<SendingPolicy>; realTime?: boolean; metrics?: NodeMetrics } = {}): Promise<TestRelayer> {
  const local = await startLocalChain();
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', destination: new Writable({ write: (chunk, _encoding, done) => (logs.push(String(chunk)), done()) }) });
  const chain = new ViemRelayerChain(local.chainId, { client: local.publicClient, accounts: [relayerAccount], errorAbi: protocolErrorsAbi });
  const test = await startTestSystem({
    kinds: [transactionKindFor({ chain, policy: { ...TEST_POLICY, ...options.policy } }), walletKind, outcomeOwnerKind],
    logger,
    metrics: options.metrics,
    ...(options.realTime ? { clock: new SystemClock() as unknown as TestClock, timerPollMs: 20 } : {}),
  });
  const system: ActorSystem = test.system;
  return {
    ...test,
    local,
    chain,
    relayer: new Relayer(system),
    logs,
    async owner(id) {
      const address = { kind: 'owner', id };
      await system.askAt(address, { type: 'OPEN' });
      return address;
    },
    async outcomesOf(ownerId) {
      const doc = await system.documents('owner').findOne({ _id: ownerId });
      return (doc!.view as unknown as OwnerView).outcomes;
    },
    async view(id) {
      return (await system.documents('transaction').findOne({ _id: id }))!.view as unknown as TransactionView;
    },
    minedNonce: () => local.publicClient.getTransactionCount({ address: relayerAccount.address, blockTag: 'latest' }),
    async stop() {
      await system.drain();
      await local.stop();
    },
  };
}

/** Calldata of a USDC transfer. */
export function usdcTransfer(to: Address, amount: bigint) {
  return encodeFunctionData({ abi: mockUSDCAbi, functionName: 'transfer', args: [to, amount] });
}
