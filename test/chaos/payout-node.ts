/**
 * What the payout kill tests share: a node process's environment over the world they keep in
 * the test process (anvil behind a JSON-RPC gate, an indexer, the attestation service, the local
 * conversion provider, a mail catcher), and a payout funded through that provider whose
 * customer is signed in with the code the node mailed.
 */
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import type { Logger } from 'pino';
import { toHex, type Hex } from 'viem';
import { EmbeddedStore, createLogger, loadConfig } from '../../actors/index.js';
import { ConversionSimulator } from '../../deploy/conversion-simulator/index.js';
import { startEnclaveSide, type EnclaveSide } from '../../deploy/enclave.js';
import { LocalMailCatcher } from '../../deploy/mail-catcher.js';
import { ChainRegistry } from '../../enclave/index.js';
import { anvilTestAccount, startLocalChain, type LocalChain } from '../../indexer/chain/index.js';
import { USDC_ON_BASE, WORKED_PAYOUT_SETTINGS, payoutBody } from '../support/payout-fakes.js';
import { call, ok, until } from './http-polls.js';
import type { PaymentNodeProcess } from './payment-node-process.js';
import { payoutMerchant } from './payout-merchant.js';

const privateKeyOf = (index: number): Hex => toHex(anvilTestAccount(index).getHdKey().privateKey!);

/**
 * What outlives the node, started in the test's process and stopped at its end: the attestation
 * service, anvil with our contracts (chain 8453, its verifier trusting that service), the local
 * conversion provider and a mail catcher.
 */
export async function payoutWorldOutside(t: ExecutionContext) {
  const silent: Logger = createLogger({ level: 'silent' });
  const chains = new ChainRegistry();
  const enclave = await startEnclaveSide(
    loadConfig({}),
    new EmbeddedStore(),
    silent,
    { grpcAddress: '127.0.0.1:0', httpHost: '127.0.0.1', httpPort: 0 },
    { chains },
  );
  t.teardown(() => enclave.stop());
  const local = await startLocalChain({ chainId: 8453, witness: enclave.service.signer });
  t.teardown(() => local.stop());
  chains.set(local.chainId, { paymentVerifier: local.verifier });
  const provider = await ConversionSimulator.start({ chain: local, now: () => Date.now(), logger: silent, pollMs: 50 });
  t.teardown(() => provider.stop());
  const mail = await LocalMailCatcher.start();
  t.teardown(() => mail.stop());
  return { silent, enclave, local, provider, mail };
}

export interface PayoutNodeWorld {
  /** Names the node, its secrets and its merchant. */
  name: string;
  adminToken: string;
  local: LocalChain;
  /** Where the node reaches the chain: the gate in front of anvil. */
  rpcUrl: string;
  indexerAddress: string;
  enclave: EnclaveSide;
  provider: ConversionSimulator;
  mail: LocalMailCatcher;
  /** The test's folder: the node's data and its logs. */
  root: string;
}

export function payoutNodeEnvironment(world: PayoutNodeWorld, run: number): Record<string, string> {
  const { local, enclave } = world;
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    NODE_ID: `${world.name}-node`,
    DATA_DIR: join(world.root, 'data'),
    PEER_ADMIN_TOKEN: world.adminToken,
    ID_SECRET: `${world.name}-id-secret-0123456789abcdef`,
    RATE_LIMIT_PER_MINUTE: '1000000',
    TIMER_POLL_MS: '100',
    SWEEP_INTERVAL_MS: '100',
    CHAIN_RPC_URL: world.rpcUrl,
    CHAIN_USDC_ADDRESS: local.usdc,
    CHAIN_ESCROW_ADDRESS: local.escrow,
    CHAIN_ORCHESTRATOR_ADDRESS: local.orchestrator,
    CHAIN_BATCH_EXECUTOR_ADDRESS: local.batchExecutor,
    CHAIN_DEPOSIT_ASSERTIONS_ADDRESS: local.depositAssertions,
    INDEXER_URL: world.indexerAddress,
    RELAYER_PRIVATE_KEYS: privateKeyOf(7),
    RELAYER_CHECK_MS: '200',
    GATING_PRIVATE_KEY: privateKeyOf(6),
    PLATFORM_FEE_RECIPIENT: anvilTestAccount(8).address,
    ENCLAVE_URL: enclave.server.grpcAddress,
    ENCLAVE_PUBLIC_URL: enclave.server.httpUrl,
    ENCLAVE_MEASUREMENT: enclave.service.attestationDocument().measurement,
    ENCLAVE_TRUSTED_SIGNERS: enclave.service.signer,
    CONVERSION_PROVIDER_URL: world.provider.url,
    LOCAL_EMBEDDED_WALLETS: 'true',
    PAYOUT_SERVICE_FEE_WALLET: '0x3333333333333333333333333333333333333333',
    PAYOUT_FUNDING_POLL_MS: '1000',
    SMTP_URL: world.mail.url,
    PAYMENT_NODE_LOG: join(world.root, `node-${run}.log`),
  };
}

/** A payout of the world's merchant funded through its provider, read FUNDED, and its customer signed in on `node`. */
export async function fundedSignedInPayout(world: PayoutNodeWorld, node: PaymentNodeProcess, methods: readonly string[] = WORKED_PAYOUT_SETTINGS.methods) {
  const merchant = await payoutMerchant(node.url, world.adminToken, world.name, methods);
  const key = { 'x-api-key': merchant.liveApiKey };
  const created = ok(
    await call(node.url, 'POST', '/api/v1/payouts', { headers: { ...key, 'idempotency-key': world.name }, body: payoutBody() }),
    201,
    'the payout',
  );
  await world.provider.sendFromWallet({
    depositAddress: created.funding.depositAddress,
    chainId: 8453,
    tokenAddress: USDC_ON_BASE,
    amount: created.funding.amount,
  });
  const read = async (on: PaymentNodeProcess) => ok(await call(on.url, 'GET', `/api/v1/payouts/${created.payoutId}`, { headers: key }), 200, 'the read');
  const logsOf = (run: number) => `\n(node log: ${join(world.root, `node-${run}.log`)})`;
  await until(
    'the payout funded',
    () => read(node),
    (payout) => payout.status === 'FUNDED',
    30_000,
    () => logsOf(1),
  );
  const token = new URL(created.checkoutUrl).searchParams.get('token')!;
  const cashout = (on: PaymentNodeProcess, method: string, path = '', body?: unknown, login?: string) =>
    call(on.url, method, `/api/v1/cashout-checkout/${created.payoutId}${path}`, {
      headers: { 'x-cashout-token': token, ...(login ? { authorization: `Bearer ${login}` } : {}) },
      ...(body === undefined ? {} : { body }),
    });
  ok(await cashout(node, 'POST', '/sign-in/code'), 202, 'the code');
  const code = /\b(\d{6})\b/.exec(world.mail.messages()[0]!.subject)![1]!;
  const { loginToken } = ok(await cashout(node, 'POST', '/sign-in', { code }), 200, 'the sign-in');
  return { merchant, key, created, read, cashout, loginToken: loginToken as string, logsOf };
}
