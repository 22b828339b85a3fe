/**
 * The world of the kill tests that SIGKILL a payment node between its fulfilment being mined
 * and its learning of it (payment-kill.chaos.ts, fulfil-sar-kill.chaos.ts): everything that
 * outlives the node in the test process (the attestation service with its platform simulator,
 * anvil with our contracts, the indexer and the JSON-RPC gate of fulfil-capture.ts), the node's
 * durable data folder with the maker's payee registered, the node's environment for each run,
 * and what the node had saved there, read with no node running on it.
 */
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { toHex, type Hex } from 'viem';
import { EmbeddedStore, actorCollectionName, createLogger, decode, loadConfig } from '../../actors/index.js';
import { PayeeDirectory } from '../../actors/market/index.js';
import { startEnclaveSide } from '../../deploy/enclave.js';
import { ChainRegistry } from '../../enclave/index.js';
import { anvilTestAccount, startLocalChain, type LocalChain } from '../../indexer/chain/index.js';
import { ChainFact } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { MAKER_PAYEE } from '../support/payment-flow.js';
import { fulfilCapture } from './fulfil-capture.js';
import type { PaymentNodeProcess, RunEvent } from './payment-node-process.js';

/** Base's id: the catalog's default destination, so the local chain settles what orders pay out on Base. */
const CHAIN_ID = 8453;
export const RELAYER = anvilTestAccount(7);
const GATING = anvilTestAccount(6);
const FEE_RECIPIENT = anvilTestAccount(8).address;
const privateKeyOf = (account: typeof RELAYER): Hex => toHex(account.getHdKey().privateKey!);

/**
 * Starts the world under `root` for the test `name` (its node id, admin token and id secret), with
 * the maker's deposit `openDeposit` makes on the chain before the indexer reads it, the gate closing
 * on the node's fulfillIntent unless `closesOn` picks another send; all of it stops at the test's teardown.
 */
export async function startFulfilKillWorld(
  t: ExecutionContext,
  root: string,
  name: string,
  openDeposit: (local: LocalChain) => Promise<bigint>,
  closesOn?: (local: LocalChain) => (raw: Hex) => boolean,
) {
  const silent = createLogger({ level: 'silent' });
  // The attestation service first: the chain's verifier is deployed with its signer as the witness.
  const chains = new ChainRegistry();
  const enclave = await startEnclaveSide(
    loadConfig({}),
    new EmbeddedStore(),
    silent,
    { grpcAddress: '127.0.0.1:0', httpHost: '127.0.0.1', httpPort: 0 },
    { chains },
  );
  t.teardown(() => enclave.stop());
  const local = await startLocalChain({ chainId: CHAIN_ID, witness: enclave.service.signer });
  t.teardown(() => local.stop());
  chains.set(local.chainId, { paymentVerifier: local.verifier });
  // The deployment sends from the relayer's wallet too (the intent guardian's approval of the extension token).
  const sentAtDeploy = await local.publicClient.getTransactionCount({ address: RELAYER.address });
  const measurement = enclave.service.attestationDocument().measurement;
  const depositId = await openDeposit(local);

  // The indexer, whose view of the head the test can cap, and the node's way to the chain, which closes on its fulfillIntent.
  const capture = await fulfilCapture(local, silent, closesOn?.(local));
  t.teardown(() => capture.indexer.stop());
  t.teardown(() => capture.gate.stop());
  const fulfilledFacts = async (intentHash: Hex) =>
    (await capture.collections.facts.find({}))
      .map((doc) => ChainFact.fromJSON(doc.fact))
      .filter((fact) => fact.event?.$case === 'intentFulfilled' && fact.event.value.intentHash.toLowerCase() === intentHash.toLowerCase());

  // The node's data folder, with the maker's payee registered, as maker registration leaves it.
  const dataDir = join(root, 'data');
  {
    const store = await EmbeddedStore.open({ dataDir });
    await (await PayeeDirectory.open(store)).register('venmo', MAKER_PAYEE, new Date().toISOString());
    await store.close();
  }
  const adminToken = `${name}-admin-token-0123456789`;
  const environment = (run: number): Record<string, string> => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    NODE_ID: `${name}-node`,
    DATA_DIR: dataDir,
    PEER_ADMIN_TOKEN: adminToken,
    ID_SECRET: `${name}-id-secret-0123456789abcdef`,
    RATE_LIMIT_PER_MINUTE: '1000000',
    TIMER_POLL_MS: '100',
    SWEEP_INTERVAL_MS: '100',
    CHAIN_RPC_URL: capture.gate.url,
    CHAIN_USDC_ADDRESS: local.usdc,
    CHAIN_ESCROW_ADDRESS: local.escrow,
    CHAIN_ORCHESTRATOR_ADDRESS: local.orchestrator,
    INDEXER_URL: capture.indexer.address,
    RELAYER_PRIVATE_KEYS: privateKeyOf(RELAYER),
    RELAYER_CHECK_MS: '200',
    GATING_PRIVATE_KEY: privateKeyOf(GATING),
    PLATFORM_FEE_RECIPIENT: FEE_RECIPIENT,
    ENCLAVE_URL: enclave.server.grpcAddress,
    ENCLAVE_PUBLIC_URL: enclave.server.httpUrl,
    ENCLAVE_MEASUREMENT: measurement,
    ENCLAVE_TRUSTED_SIGNERS: enclave.service.signer,
    PAYMENT_NODE_LOG: join(root, `node-${run}.log`),
  });
  const events: RunEvent[] = [];
  const nodes: PaymentNodeProcess[] = [];
  t.teardown(async () => {
    for (const node of nodes) await node.kill();
  });
  return {
    enclave,
    local,
    sentAtDeploy,
    measurement,
    depositId,
    ...capture,
    fulfilledFacts,
    dataDir,
    adminToken,
    environment,
    /** What every run's bus tap handed over, in order. */
    events,
    /** Every node started, killed at the test's teardown. */
    nodes,
    logsOf: (run: number) => `\n(node log: ${join(root, `node-${run}.log`)}; kept only while the test runs)`,
  };
}

/** What the node had saved in its data folder, read with no node running on it. */
export async function savedState(dataDir: string, paymentId: string, orderId: string) {
  const store = await EmbeddedStore.open({ dataDir });
  try {
    const actors = async (kind: string) => store.collection({ name: actorCollectionName(kind), indexes: [] });
    const payment = (await (await actors('payment')).findOne({ _id: paymentId }))!;
    const order = (await (await actors('order')).findOne({ _id: orderId }))!;
    const transactions = await (await actors('transaction')).find({});
    const actions = await (await actors('action')).find({});
    const paymentContext = decode<{ context: { creditedUsdcAmount: bigint | null; remediation?: { actionId: string } | null } }>(payment.snapshot).context;
    const orderContext = decode<{ context: { settlements: Array<{ paymentId: string; usdcAmount: bigint }> } }>(order.snapshot).context;
    return {
      payment: payment.view as any,
      credited: paymentContext.creditedUsdcAmount,
      /** The action the payment is carrying out; null when none. */
      remediation: paymentContext.remediation ?? null,
      order: order.view as any,
      settlements: orderContext.settlements.map(({ paymentId: id, usdcAmount }) => ({ paymentId: id, usdcAmount })),
      fulfilments: transactions.map((doc) => doc.view as any).filter((view) => view.purpose === 'fulfillIntent'),
      actions: actions.map((doc) => doc.view as any),
    };
  } finally {
    await store.close();
  }
}
