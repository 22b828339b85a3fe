/**
 * The whole topology on loopback: three nats-servers clustered with JetStream, one store
 * every process shares (MONGODB_URI, or the local stand-in for MongoDB), the attestation
 * service and a local chain (anvil, our contracts, makers' deposits), the indexer as its
 * own process, N platform nodes (`deploy/main.ts`, as `npm start` runs) and HAProxy in
 * front of them. `npm run cluster` runs it; the rolling-restart test and the checkout
 * benchmark drive it.
 *
 * The chain and the attestation service live in this process: they are the world the
 * cluster pays into, not part of what a restart or a kill is meant to test.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { toHex, type Hex } from 'viem';
import { EmbeddedStore, loadConfig } from '../../actors/index.js';
import { PayeeDirectory } from '../../actors/market/index.js';
import { ChainRegistry } from '../../enclave/index.js';
import { anvilTestAccount, startLocalChain, type LocalChain } from '../../indexer/chain/index.js';
import { startEnclaveSide, type EnclaveSide } from '../enclave.js';
import { seedMakers, type SeededMaker } from '../seed-makers.js';
import { openConfiguredStore } from '../store.js';
import { freePort, listening } from './free-port.js';
import { ROTATION_LEAVE_MS, startHaproxy } from './haproxy.js';
import { NatsCluster } from './nats-cluster.js';
import { ServiceProcess, type Exit } from './service-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Base's id: the catalog's default destination, so the local chain settles what orders pay out on Base. */
const CHAIN_ID = 8453;
const RELAYER = anvilTestAccount(7);
const GATING = anvilTestAccount(6);
const FEE_RECIPIENT = anvilTestAccount(8).address;
const privateKeyOf = (account: typeof RELAYER): Hex => toHex(account.getHdKey().privateKey!);
/** What a node may take to drain: the rotation's leave, then turns in flight and the shard handover. */
const DRAIN_TIMEOUT_MS = ROTATION_LEAVE_MS + 15_000;
const START_TIMEOUT_MS = 60_000;

export interface LocalClusterOptions {
  /** Logs, JetStream folders and the balancer's configuration. */
  folder: string;
  logger: Logger;
  nodes?: number;
  /** The balancer's port; 0 picks a free one. */
  port?: number;
  /** The real store; unset, the local stand-in for MongoDB is started and used. */
  mongodbUri?: string;
  /** Added to every node's environment (tests shorten timers, lift limits). */
  nodeEnv?: Record<string, string>;
}

/** One node's place in the cluster: its ports, kept across restarts, and the processes it has run as. */
export class ClusterNode {
  /** Every process this node has run as, oldest first. */
  readonly runs: ServiceProcess[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    readonly metricsPort: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The process it runs as now (or ran as last). */
  get process(): ServiceProcess {
    const current = this.runs.at(-1);
    if (!current) throw new Error(`${this.name} has not been started`);
    return current;
  }
}

export class LocalCluster {
  readonly nodes: ClusterNode[] = [];
  #stopped = false;

  private constructor(
    readonly options: LocalClusterOptions,
    readonly nats: NatsCluster,
    readonly store: { url: string; kind: 'mongodb' | 'stand-in'; process: ServiceProcess | null },
    readonly enclave: EnclaveSide,
    readonly chain: LocalChain,
    readonly indexer: { address: string; process: ServiceProcess },
    readonly makers: SeededMaker[],
    readonly adminToken: string,
    readonly idSecret: string,
    readonly parts: { balancerPort: number },
    public haproxy: ServiceProcess | null = null,
  ) {}

  /** The balancer: where clients send every request. */
  get url(): string {
    return `http://127.0.0.1:${this.parts.balancerPort}`;
  }

  static async start(options: LocalClusterOptions): Promise<LocalCluster> {
    const { folder, logger } = options;
    mkdirSync(folder, { recursive: true });
    const cleanups: Array<() => Promise<unknown>> = [];
    try {
      const nats = await NatsCluster.start(join(folder, 'nats'));
      cleanups.push(() => nats.stop());
      logger.info({ url: nats.url }, 'nats cluster ready');

      const store = options.mongodbUri ? { url: options.mongodbUri, kind: 'mongodb' as const, process: null } : await startStandIn(folder);
      if (store.process) cleanups.push(() => store.process!.stop(5_000));
      logger.info({ store: store.kind === 'stand-in' ? `${store.url} (a local stand-in for MongoDB)` : 'MONGODB_URI' }, 'store ready');
      const storeEnv: Record<string, string> = store.kind === 'mongodb' ? { MONGODB_URI: store.url } : { STANDIN_STORE_URL: store.url };

      // The attestation service first: the chain's verifier is deployed with its signer as the witness.
      const chains = new ChainRegistry();
      const enclave = await startEnclaveSide(
        loadConfig({}),
        new EmbeddedStore(),
        logger,
        { grpcAddress: '127.0.0.1:0', httpHost: '127.0.0.1', httpPort: 0 },
        { chains },
      );
      cleanups.push(() => enclave.stop());
      const chain = await startLocalChain({ chainId: CHAIN_ID, witness: enclave.service.signer });
      cleanups.push(() => chain.stop());
      chains.set(chain.chainId, { paymentVerifier: chain.verifier, disputeVerifier: chain.escrow });
      logger.info({ rpcUrl: chain.rpcUrl, chainId: chain.chainId }, 'local chain ready');

      const makers = await withStore(storeEnv, async (shared) =>
        seedMakers(chain, await PayeeDirectory.open(shared), new Date().toISOString(), logger.child({ component: 'local-makers' })),
      );

      const chainEnv = {
        CHAIN_RPC_URL: chain.rpcUrl,
        CHAIN_USDC_ADDRESS: chain.usdc,
        CHAIN_ESCROW_ADDRESS: chain.escrow,
        CHAIN_ORCHESTRATOR_ADDRESS: chain.orchestrator,
      };
      const indexerAddress = `127.0.0.1:${await freePort()}`;
      const indexer = ServiceProcess.spawn({
        name: 'indexer',
        command: process.execPath,
        args: ['--import', 'tsx', 'deploy/indexer-main.ts'],
        env: {
          NODE_ENV: 'development',
          LOG_LEVEL: 'info',
          ...storeEnv,
          ...chainEnv,
          INDEXER_GRPC_ADDR: indexerAddress,
          INDEXER_START_BLOCK: String(chain.deployBlock),
          INDEXER_POLL_MS: '100',
        },
        cwd: ROOT,
        logFile: join(folder, 'indexer.log'),
      });
      cleanups.push(() => indexer.stop(10_000));
      await indexer.ready(() => listening(Number(indexerAddress.split(':')[1])), START_TIMEOUT_MS);
      logger.info({ address: indexerAddress }, 'indexer ready');

      const adminToken = randomBytes(24).toString('hex');
      const idSecret = randomBytes(32).toString('hex');
      const cluster = new LocalCluster(options, nats, store, enclave, chain, { address: indexerAddress, process: indexer }, makers, adminToken, idSecret, {
        balancerPort: options.port || (await freePort()),
      });
      cluster.#cleanups = cleanups;
      const env = cluster.#nodeEnv(storeEnv, chainEnv);
      const count = options.nodes ?? 3;
      for (let index = 1; index <= count; index++) {
        cluster.nodes.push(new ClusterNode(`node-${index}`, await freePort(), await freePort()));
      }
      cluster.#env = env;
      // A start that fails part way must not leave the nodes it started running with no parent.
      cleanups.push(() => Promise.all(cluster.nodes.map((node) => node.runs.at(-1)?.kill())));
      // One at a time: the first takes every shard, the next ones are handed their share.
      for (const node of cluster.nodes) await cluster.startNode(node);
      cluster.haproxy = await startHaproxy(
        folder,
        cluster.parts.balancerPort,
        cluster.nodes.map(({ name, port }) => ({ name, port })),
      );
      cleanups.push(() => cluster.haproxy!.stop(5_000));
      await cluster.#balancerServes();
      logger.info({ url: cluster.url }, 'load balancer ready');
      return cluster;
    } catch (error) {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
      throw error;
    }
  }

  #cleanups: Array<() => Promise<unknown>> = [];
  #env: Record<string, string> = {};

  #nodeEnv(storeEnv: Record<string, string>, chainEnv: Record<string, string>): Record<string, string> {
    const { enclave } = this;
    return {
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      NATS_URL: this.nats.url,
      NATS_REPLICAS: '3',
      ...storeEnv,
      ID_SECRET: this.idSecret,
      PEER_ADMIN_TOKEN: this.adminToken,
      // The balancer is on loopback: the client's address is the one it forwards.
      TRUSTED_PROXIES: '127.0.0.1/32',
      ROTATION_LEAVE_MS: String(ROTATION_LEAVE_MS),
      DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS),
      ...chainEnv,
      INDEXER_URL: this.indexer.address,
      RELAYER_PRIVATE_KEYS: privateKeyOf(RELAYER),
      GATING_PRIVATE_KEY: privateKeyOf(GATING),
      PLATFORM_FEE_RECIPIENT: FEE_RECIPIENT,
      ENCLAVE_URL: enclave.server.grpcAddress,
      ENCLAVE_PUBLIC_URL: enclave.server.httpUrl,
      ENCLAVE_MEASUREMENT: enclave.service.attestationDocument().measurement,
      ENCLAVE_TRUSTED_SIGNERS: enclave.service.signer,
      ...this.options.nodeEnv,
    };
  }

  /** Starts `node` (again) on its port and waits until its readiness probe answers 200. */
  async startNode(node: ClusterNode): Promise<void> {
    const dataDir = join(this.options.folder, node.name);
    mkdirSync(dataDir, { recursive: true });
    const proc = ServiceProcess.spawn({
      name: node.name,
      command: process.execPath,
      args: ['--import', 'tsx', 'deploy/main.ts'],
      env: {
        ...this.#env,
        NODE_ID: `${node.name}-${node.runs.length + 1}`,
        PORT: String(node.port),
        METRICS_PORT: String(node.metricsPort),
        DATA_DIR: dataDir,
      },
      cwd: ROOT,
      logFile: join(this.options.folder, `${node.name}.log`),
    });
    node.runs.push(proc);
    await proc.ready(async () => (await fetch(`${node.url}/v1/health-check/ready`)).status === 200, START_TIMEOUT_MS, 200);
    this.options.logger.info({ node: node.name, url: node.url, pid: proc.pid }, 'node ready');
  }

  /** SIGTERM: the node leaves the rotation, finishes what it holds, hands its shards over and exits. */
  async stopNode(node: ClusterNode): Promise<Exit> {
    return node.process.stop(DRAIN_TIMEOUT_MS + 5_000);
  }

  /** SIGKILL: nothing is drained; its leases lapse and the other nodes take its shards. */
  async killNode(node: ClusterNode): Promise<Exit> {
    return node.process.kill();
  }

  /** A rolling restart's step: stop the node with its drain, start it again, wait until it is ready. */
  async restartNode(node: ClusterNode): Promise<Exit> {
    const exit = await this.stopNode(node);
    await this.startNode(node);
    return exit;
  }

  async #balancerServes(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const answer = await fetch(`${this.url}/v1/health-check/ready`).catch(() => null);
      if (answer?.status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the balancer at ${this.url} had no node in its rotation within ${START_TIMEOUT_MS} ms`);
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await this.haproxy?.stop(5_000);
    // One at a time, as a rolling restart does: a node stopping beside the others hands its shards to one still up.
    for (const node of this.nodes) await node.runs.at(-1)?.stop(DRAIN_TIMEOUT_MS + 5_000);
    for (const cleanup of this.#cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

async function startStandIn(folder: string): Promise<{ url: string; kind: 'stand-in'; process: ServiceProcess }> {
  const proc = ServiceProcess.spawn({
    name: 'stand-in store',
    command: process.execPath,
    args: ['--import', 'tsx', 'deploy/cluster/standin-store-main.ts'],
    env: { STANDIN_STORE_PORT: String(await freePort()) },
    cwd: ROOT,
    logFile: join(folder, 'standin-store.log'),
  });
  let url = '';
  await proc.ready(async () => {
    const line = proc.tail.split('\n').find((text) => text.includes('stand-in store listening'));
    if (line) url = (JSON.parse(line) as { url: string }).url;
    return url !== '';
  }, START_TIMEOUT_MS);
  return { url, kind: 'stand-in', process: proc };
}

/** Runs `use` over a connection of this process's own to the cluster's store. */
async function withStore<T>(storeEnv: Record<string, string>, use: (store: Awaited<ReturnType<typeof openConfiguredStore>>) => Promise<T>): Promise<T> {
  const store = await openConfiguredStore(loadConfig(storeEnv), async () => {
    throw new Error('the cluster has no store');
  });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
