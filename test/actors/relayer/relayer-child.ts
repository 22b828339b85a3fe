/**
 * A relayer node in a child process, for the crash tests: an embedded store on disk,
 * the transaction and wallet kinds on the system clock, sending from anvil dev account 7
 * to the anvil at RPC_URL. With SEND=1 it prepares one USDC transfer; either way it then
 * runs until that transaction has an outcome its owner heard, prints both as one JSON
 * line and exits. FAULT kills it with SIGKILL at its first raw broadcast: before the
 * bytes leave (`before-broadcast`) or once the node has them (`after-broadcast`); the
 * hash it was sending is printed first, so the test can compare it with what was mined.
 */
import { keccak256, createPublicClient, custom, http, type Hex, type PublicClient } from 'viem';
import { ActorSystem, EmbeddedStore, EmbeddedTransport, MemoryBus, SystemClock, createLogger } from '../../../actors/index.js';
import { transactionKindFor, walletKind, type TransactionView } from '../../../actors/kinds/index.js';
import { ViemRelayerChain } from '../../../actors/adapters/chain/viem-relayer-chain.js';
import { Relayer } from '../../../actors/relayer/index.js';
import { protocolErrorsAbi } from '../../../indexer/chain/index.js';
import { outcomeOwnerKind, type OwnerView } from '../../support/outcome-owner-kind.js';
import { relayerAccount, usdcTransfer } from '../../support/relayer.js';

const env = process.env as Record<string, string>;
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const rpc = http(env.RPC_URL, { retryCount: 0 })({});
const faulty = custom({
  async request({ method, params }: { method: string; params?: unknown }) {
    if (method === 'eth_sendRawTransaction' && env.FAULT) {
      const [raw] = params as [Hex];
      say({ broadcasting: keccak256(raw) });
      if (env.FAULT === 'after-broadcast') await rpc.request({ method, params });
      process.kill(process.pid, 'SIGKILL');
    }
    return rpc.request({ method, params } as never);
  },
});
const client = createPublicClient({ transport: faulty, pollingInterval: 50 }) as PublicClient;

const store = await EmbeddedStore.open({ dataDir: env.DATA_DIR! });
const logger = createLogger({ level: 'warn', destination: process.stderr });
const system = new ActorSystem({
  store,
  transport: new EmbeddedTransport(),
  bus: new MemoryBus(),
  clock: new SystemClock(),
  logger,
  shardCount: 16,
  cacheSize: 100,
  askTimeoutMs: 10_000,
  attemptTimeoutMs: 5_000,
  timerPollMs: 50,
  sweepIntervalMs: 100,
});
const chain = new ViemRelayerChain(Number(env.CHAIN_ID), { client, accounts: [relayerAccount], errorAbi: protocolErrorsAbi });
system.register(transactionKindFor({ chain, policy: { confirmations: 1, checkEveryMs: 100, bumpAfterMs: 600_000, maxFeePerGas: 1_000_000_000_000n } }));
system.register(walletKind);
system.register(outcomeOwnerKind);
await system.start();

const owner = { kind: 'owner', id: 'crash' };
if (env.SEND === '1') {
  await system.askAt(owner, { type: 'OPEN' }, { messageId: 'open-owner' });
  await new Relayer(system).send('tx_crash', { to: env.USDC as Hex, data: usdcTransfer(env.TO as Hex, 1_000_000n), value: 0n, purpose: 'transfer', owner });
}

const finished = () =>
  new Promise<void>((resolve) => {
    const look = async () => {
      const owned = await system.documents('owner').findOne({ _id: 'crash' });
      if (owned && (owned.view as unknown as OwnerView).outcomes.length > 0) resolve();
      else setTimeout(look, 20);
    };
    void look();
  });
await finished();
const view = (await system.documents('transaction').findOne({ _id: 'tx_crash' }))!.view as unknown as TransactionView;
const outcomes = ((await system.documents('owner').findOne({ _id: 'crash' }))!.view as unknown as OwnerView).outcomes;
say({ view, outcomes });
await system.drain();
await store.close();
process.exit(0);
