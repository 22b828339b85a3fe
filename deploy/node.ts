/**
 * One platform node: store, transport, event bus, actor system and gateway, chosen
 * by configuration. With no NATS_URL everything is embedded in this process; with
 * NATS_URL (and MONGODB_URI, or the local stand-in STANDIN_STORE_URL) the node joins a
 * cluster: it takes a share of the shard leases and serves the actors on them.
 */
import type { Hex } from 'viem';
import type { Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import {
  ActorSystem,
  EmbeddedStore,
  EmbeddedTransport,
  BusJournal,
  JetStreamBus,
  MemoryBus,
  NatsTransport,
  SystemClock,
  createLogger,
  retryPolicyOf,
  DeadLetterStore,
  PrometheusMetrics,
  instrumentStore,
  withEffects,
  type ActorKind,
  type Clock,
  type Config,
  type EventBus,
  type Store,
  type Transport,
} from '../actors/index.js';
import { randomBytes } from 'node:crypto';
import { HttpRateProvider, LocalRateProvider, RateSource } from '../actors/adapters/rates/index.js';
import {
  actionKind,
  cashoutLoginKind,
  dashboardLoginKind,
  dashboardSessionKind,
  depositKind,
  makerRecordKinds,
  merchantKind,
  orderKind,
  paymentKind,
  testClockKindOn,
} from '../actors/kinds/index.js';
import { BridgeLauncher, bridgeEffects, ProviderBridgeRail, SimulatedBridgeRail, type BridgeRails } from '../actors/bridges/index.js';
import { bridgeKind } from '../actors/kinds/bridge-kind.js';
import { actionEffects } from '../actors/actions/index.js';
import { LocalSupportDesk } from '../actors/adapters/support/index.js';
import type { SupportDesk } from '../gateway/actions/support-desk.js';
import { providerMessageKind, walletTransferKind } from '../actors/wallet-transfers/index.js';
import { createGateway, createGatewayServer, listen, type GatewayRoute } from '../gateway/index.js';
import { MerchantAdmin } from '../gateway/merchants/merchant-admin.js';
import { HeapHealth } from '../gateway/service/heap-health.js';
import { Rotation } from '../gateway/service/rotation.js';
import { openDemoMerchant, type DemoMerchantKeys } from './demo-merchant.js';
import { keptAdminToken, type KeptAdminToken } from './dev-admin-token.js';
import { openKeptNodeChain, openNodeChain, startChainSide, type ChainKeeping, type ChainSide } from './chain.js';
import { liveReadinessOf } from './live-payments.js';
import type { LiveReadiness, LiveRail } from './live-readiness.js';
import { relayerSide } from './relayer.js';
import { depositSide } from './deposits.js';
import { connectEnclave } from './enclave-client.js';
import type { EnclaveClient } from '../actors/adapters/enclave/index.js';
import { Relayer, reconcileNonces, relayerWalletReadings } from '../actors/relayer/index.js';
import { RelayedStakeCompensation } from '../actors/adapters/chain/relayed-stake-compensation.js';
import { startEnclaveSide, type EnclaveSide } from './enclave.js';
import { startMetricsServer } from './metrics-server.js';
import { openConfiguredStore } from './store.js';
import { paymentSide, type PaymentSide } from './payments.js';
import { conversionSide, type ConversionSide } from './conversions.js';
import { LiquidityBook, PayeeDirectory, type IntentLedger } from '../actors/market/index.js';
import { orderbookOf } from './market.js';
import { signInChainIds } from '../gateway/wallet-auth/maker-chains.js';
import { leaderboardOf } from './leaderboard.js';
import { keptMakers, seedMakers, type SeededMaker } from './seed-makers.js';
import { webhookSide } from './webhooks.js';
import { EventRecorder, MerchantEventLog } from '../actors/merchant-events/index.js';
import { makerWalletKinds } from '../actors/makers/index.js';
import { WalletTransfers } from '../actors/chain/wallet-transfers.js';
import type { AttemptRequest, AttemptResult } from '../actors/webhooks/http-sender.js';
import { PayoutLinks } from '../gateway/payouts/payout-links.js';
import { KeptKeys } from '../gateway/cashout/kept-keys.js';
import type { SignInMail } from '../gateway/cashout/sign-in-mail.js';
import { ViemDeliveries } from './conversions.js';
import { localWalletOf } from './local-wallet.js';
import { payoutServiceFeeWallet } from './payout-service-fee.js';
import { customerWalletsOf, type PayoutParts, payoutSide, payoutSignersOf, viemBalances, accountConnectionsOf } from './payouts.js';
import { mailSide } from './mail.js';
import { signInMailOf } from './sign-in-mail.js';
import { dashboardMailOf } from './dashboard-mail.js';
import type { DashboardMail } from '../gateway/dashboard/dashboard-mail.js';
import type { Mailer } from '../actors/adapters/mail/index.js';
import type { MailInbox } from '../gateway/dev/mail-inbox.js';
import { disputeKind } from '../actors/kinds/dispute-kind.js';
import { disputeEffects } from '../actors/disputes/index.js';
import type { StakeCompensation } from '../actors/chain/stake-compensation.js';
import { chainTransfers } from '../gateway/disputes/dispute-transfer.js';

const PLATFORM_KINDS: ActorKind[] = [
  merchantKind,
  orderKind,
  walletTransferKind,
  providerMessageKind,
  cashoutLoginKind,
  dashboardLoginKind,
  dashboardSessionKind,
  ...makerWalletKinds,
];

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** How often the node reads its heap against the limit, polled or not (gateway/service/heap-health.ts). */
const HEAP_CHECK_MS = 10_000;

export interface NodeOptions {
  config: Config;
  /** Kinds beyond the platform's own (tests add machines of their own). */
  kinds?: ActorKind[];
  /** Where payout customers' sign-in codes go, in place of the node's mailer (tests read them). */
  cashoutMail?: SignInMail;
  /** Where the merchant dashboard's codes and invitations go, in place of the node's mailer (tests read them). */
  dashboardMail?: DashboardMail;
  /** What makes one webhook attempt; tests keep it on loopback so no name is ever looked up in DNS. */
  webhookSender?: (request: AttemptRequest) => Promise<AttemptResult>;
  logger?: Logger;
  clock?: Clock;
  /** Tests of placement share one embedded store between nodes of one process. */
  store?: Store;
  /** Tests stand in for the support side remediation actions wait on (an unanswering one, say). */
  supportDesk?: SupportDesk;
  /** Tests stand in for the payout providers (the funding provider, the wallet provider, the chain's receipts). */
  payoutProviders?: Partial<Pick<PayoutParts, 'funding' | 'wallets' | 'deliveries' | 'settlement' | 'balances'>> & { serviceWalletAddress?: string };
  /** Tests stand in for the bridge rails (docs/bridges.md); by default the sandbox's is simulated and live bridges run on none. */
  bridgeRails?: Partial<BridgeRails>;
  /**
   * What an escalated dispute over a protected deposit claims from (docs/disputes.md): by default the
   * escrow's stake compensation sent through the relayer (docs/chargebacks.md); tests stand one in.
   */
  stakeClaims?: StakeCompensation | null;
  /** Tests lower where list totals stop counting (gateway/paged-views.ts), to pass it with a few documents. */
  totalCap?: number;
}

export interface PlatformNode {
  config: Config;
  system: ActorSystem;
  store: Store;
  bus: EventBus;
  transport: Transport;
  server: Server;
  /** Every route the gateway serves. */
  routes: GatewayRoute[];
  /** The indexer it reads chain facts from, and the consumer handing them to actors; null without a chain. */
  chain: ChainSide | null;
  /** Sends the node's transactions; null without a chain to send on or a key to send with. */
  relayer: Relayer | null;
  /** The node's client of the attestation service (in-process or ENCLAVE_URL), its document checked; null without one. */
  enclaveClient: EnclaveClient | null;
  /** The attestation service run in-process; null in a cluster or with ENCLAVE_ENABLED=false. */
  enclave: EnclaveSide | null;
  /** The makers' deposits as quotes read them, fed by the indexer; null without a chain. */
  liquidity: LiquidityBook | null;
  /** Every intent on the makers' deposits, with what its maker earned (the leaderboard's); null without a chain. */
  intents: IntentLedger | null;
  /** Whom the makers' deposits are paid to; null without a chain. */
  payees: PayeeDirectory | null;
  /** Every payee registered on this node: makers' and payout customers'. */
  payeeDirectory: PayeeDirectory;
  /** The makers seeded on the local chain at start; empty elsewhere. */
  seededMakers: SeededMaker[];
  /** The payment flow: its kind, the chain live payments settle on (null: sandbox only) and the fees quotes price with. */
  payments: Omit<PaymentSide, 'kind'>;
  /** The conversion provider crypto rails are paid through, and the local simulator when the node runs one. */
  conversions: ConversionSide;
  /** The rails payment bridges run on, per environment (docs/bridges.md); tests make the sandbox's fail on demand. */
  bridgeRails: BridgeRails;
  /** Whether live payments can be completed now, asked of the sides they lean on; null where none are taken. */
  livePayments: LiveReadiness | null;
  /** The merchants' events of the last 30 days (docs/events.md), and what records them from the bus. */
  events: { log: MerchantEventLog; recorder: EventRecorder };
  /** What the node mails through (SMTP_URL, or its own catcher on loopback), and the mail it caught; inbox null with SMTP_URL. */
  mail: { mailer: Mailer; inbox: MailInbox | null };
  /** Base URL of the gateway, for example http://127.0.0.1:3000. */
  url: string;
  /** Base URL of the METRICS_PORT server (GET /metrics, no token); null without METRICS_PORT. */
  metricsUrl: string | null;
  /** What `npm start` shows a newcomer (deploy/main.ts); null beside a store the node was handed (tests). */
  welcome: NodeWelcome | null;
  /** Graceful stop: no new requests, turns in flight finish, leases handed back. */
  stop(): Promise<void>;
  /** What a stop under way is waiting on; null when none is. */
  stoppingAt(): string | null;
  /** Abrupt stop for failure tests: the NATS connection closes and nothing is handed back. */
  kill(): Promise<void>;
}

/** Secrets made at start that only the terminal may show: never logged. */
export interface NodeWelcome {
  /** The demo merchant's keys when this start opened it; null when the data folder held merchants already. */
  demoMerchant: DemoMerchantKeys | null;
  /** The admin token kept in DATA_DIR (dev-admin-token.ts); null where none is kept. */
  adminToken: KeptAdminToken | null;
}

export async function startNode(options: NodeOptions): Promise<PlatformNode> {
  const { config } = options;
  const logger = (options.logger ?? createLogger({ level: config.LOG_LEVEL })).child({ node: config.NODE_ID });
  const clock = options.clock ?? new SystemClock();
  // One registry per node (tests run several in one process). METRICS_PORT starts first, so a port already taken fails the start before anything is opened.
  const metrics = new PrometheusMetrics();
  const metricsServer =
    config.METRICS_PORT === undefined
      ? null
      : await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, metrics, logger: logger.child({ component: 'metrics' }) });
  const baseStore = options.store ?? (await openConfiguredStore(config, () => EmbeddedStore.open({ dataDir: config.DATA_DIR, logger })));
  // Every collection call is timed (peer_store_operation_duration_seconds); baseStore is what gets closed.
  const store = instrumentStore(baseStore, metrics);

  // One dead-letter store for the runtime and the bus, so operators see every kind of failed work in one place.
  const deadLetters = await DeadLetterStore.open(store, clock, logger);
  const retryPolicy = retryPolicyOf(config);

  let nc: NatsConnection | undefined;
  let transport: Transport;
  let bus: EventBus;
  if (config.NATS_URL) {
    nc = await connect({ servers: config.NATS_URL.split(','), name: config.NODE_ID, maxReconnectAttempts: -1 });
    transport = new NatsTransport({
      nc,
      namespace: config.NATS_NAMESPACE,
      nodeId: config.NODE_ID,
      shardCount: config.SHARD_COUNT,
      leaseTtlMs: config.LEASE_TTL_MS,
      replicas: config.NATS_REPLICAS,
      logger,
      metrics,
    });
    bus = await JetStreamBus.connect(nc, { namespace: config.NATS_NAMESPACE, replicas: config.NATS_REPLICAS, logger, deadLetters, retryPolicy, clock });
  } else {
    transport = new EmbeddedTransport();
    // Kept in the store, so an embedded node that is killed loses no event its actors emitted (webhooks rest on it).
    bus = await MemoryBus.open({ logger, deadLetters, retryPolicy, clock, journal: await BusJournal.open(store) });
  }

  const system = new ActorSystem({
    store,
    transport,
    bus,
    clock,
    logger,
    shardCount: config.SHARD_COUNT,
    cacheSize: config.ACTOR_CACHE_SIZE,
    askTimeoutMs: config.ASK_TIMEOUT_MS,
    attemptTimeoutMs: config.ATTEMPT_TIMEOUT_MS,
    timerPollMs: config.TIMER_POLL_MS,
    sweepIntervalMs: config.SWEEP_INTERVAL_MS,
    handoverWaitMs: Math.floor(config.LEASE_TTL_MS / 2),
    messageRetentionMs: config.MESSAGE_RETENTION_MS,
    historyRetentionMs: config.HISTORY_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    retryPolicy,
    deadLetters,
    metrics,
  });
  // The enclave starts first: a local chain registers its signer as the witness whose attestations release funds.
  const enclave =
    config.ENCLAVE_ENABLED && !config.NATS_URL && !config.ENCLAVE_URL
      ? await startEnclaveSide(config, store, logger, { grpcAddress: '127.0.0.1:0', httpHost: '127.0.0.1', httpPort: 0 })
      : null;
  // The chain opens before the actors start: the relayer's kinds sign and send on it. A node
  // that owns its data keeps its local chain beside it and checks any chain against the data.
  const localOptions = enclave ? { witness: enclave.service.signer } : {};
  const keeping: ChainKeeping | null = options.store
    ? null
    : {
        store,
        ...(store.adapter === 'embedded' ? { keptIn: join(config.DATA_DIR, 'chain') } : {}),
        dataPlace:
          store.adapter === 'embedded'
            ? config.DATA_DIR
            : store.adapter === 'socket'
              ? `the stand-in store at ${config.STANDIN_STORE_URL}`
              : `the database ${config.MONGODB_DB ?? '(default)'}`,
        now: () => new Date(clock.now()).toISOString(),
      };
  const { chain: opened, problem: chainProblem } = keeping
    ? await openKeptNodeChain(config, logger, localOptions, keeping)
    : { chain: await openNodeChain(config, logger, localOptions), problem: null };
  if (chainProblem) logger.error(chainProblem);
  const relaying = relayerSide(config, opened, logger.child({ component: 'relayer' }));
  let chain: ChainSide | null = null;
  let enclaveClient: EnclaveClient | null = null;
  const conversions = await conversionSide(config, opened, store, clock, logger.child({ component: 'conversions' }), keeping?.keptIn);
  const payments = await paymentSide(
    config,
    opened,
    relaying,
    conversions,
    system,
    store,
    { chainFacts: () => chain?.chainFacts ?? null, enclave: () => enclaveClient },
    logger.child({ component: 'payments' }),
  );
  const payoutSigners = options.payoutProviders?.wallets ? null : await payoutSignersOf(config, opened, store, () => new Date(clock.now()).toISOString());
  const deposits = depositSide(config, opened, relaying, system, logger.child({ component: 'deposits' }), payoutSigners);
  // Open on every node: maker records register their payees here, chain or not; payout listings too.
  const payeeDirectory = await PayeeDirectory.open(store);
  const walletBalances = options.payoutProviders?.balances ?? (opened ? viemBalances(opened.client, opened.contracts.usdc) : null);
  const payoutDeliveries =
    options.payoutProviders?.deliveries ?? (opened ? new ViemDeliveries(opened.client, opened.contracts.usdc) : { delivered: async () => null });
  const payoutChain =
    options.payoutProviders?.settlement ??
    (opened
      ? {
          chain: { chainId: opened.contracts.chainId, escrow: opened.contracts.escrow, orchestrator: opened.contracts.orchestrator },
          usdc: opened.contracts.usdc,
        }
      : null);
  const payouts = payoutSide({
    funding: options.payoutProviders?.funding ?? conversions.funding,
    wallets: options.payoutProviders?.wallets ?? customerWalletsOf(config, opened, payoutSigners),
    deliveries: payoutDeliveries,
    claims: conversions.claims,
    settlement: payoutChain,
    watch: async (subject, owner) => {
      if (!chain?.chainFacts) return;
      await chain.chainFacts.subscribe(subject, owner);
    },
    balances: walletBalances,
    bridges:
      conversions.bridges && payoutChain
        ? { provider: conversions.bridges, deliveries: payoutDeliveries, claims: conversions.claims, chain: payoutChain.chain }
        : null,
    sends:
      deposits && payoutSigners
        ? { chain: deposits.chain, wallets: payoutSigners, relayer: new Relayer(system), batchTtlSeconds: BigInt(config.ATOMIC_CREATE_BATCH_TTL_SECONDS) }
        : null,
    listings: deposits
      ? { chain: deposits.chain, deposits: () => system.views(depositKind), payees: payeeDirectory, waitMs: config.ATOMIC_CREATE_WAIT_MS }
      : null,
    settings: {
      serviceWalletAddress:
        options.payoutProviders?.serviceWalletAddress ?? payoutServiceFeeWallet(config, opened ? { localChain: Boolean(opened.localChain) } : null),
      railsOff: new Set(config.PAYOUT_RAILS_OFF),
      fundingTokensOff: new Set(config.PAYOUT_FUNDING_TOKENS_OFF),
      fundingWindowMs: config.PAYOUT_FUNDING_DEADLINE_MS,
      pollMs: config.PAYOUT_FUNDING_POLL_MS,
      prepareTimeoutMs: 20_000,
    },
  });
  const eventLog = await MerchantEventLog.open(store, clock);
  const recorder = new EventRecorder({ system, log: eventLog, clock, logger: logger.child({ component: 'events' }) });
  const webhooks = webhookSide(config, system, store, bus, recorder, logger.child({ component: 'webhooks' }), options.webhookSender);
  // Live bridges need a relayer wallet to receive settlements and send them on, and the provider's bridge out of Base.
  const bridgeWallet = (relaying?.chain.wallets[0] as Hex | undefined) ?? null;
  const liveBridgeRail =
    bridgeWallet && conversions.bridges && payoutChain && relaying
      ? new ProviderBridgeRail({
          provider: conversions.bridges,
          relayer: new Relayer(system),
          deliveries: payoutDeliveries,
          claims: conversions.claims,
          chain: payoutChain.chain,
          usdc: payoutChain.usdc as Hex,
          wallet: bridgeWallet,
          now: () => new Date(clock.now()).toISOString(),
        })
      : null;
  const bridgeRails: BridgeRails = { SANDBOX: new SimulatedBridgeRail(), LIVE: liveBridgeRail, ...options.bridgeRails };
  // The relayer's wallet is the escrow's dispute arbiter (docs/chargebacks.md): staff's trigger and escalated disputes send through it.
  const stakeCompensation = opened && relaying ? new RelayedStakeCompensation({ relayer: new Relayer(system), escrow: opened.contracts.escrow }) : null;
  const bridgeLauncher = new BridgeLauncher({ system, bus, logger: logger.child({ component: 'bridges' }) });
  for (const kind of [
    ...PLATFORM_KINDS,
    withEffects(
      actionKind,
      actionEffects({ payment: async (id) => (await system.views(paymentKind).findOne({ _id: id }, { projection: { view: 1 } }))?.view ?? null }),
    ),
    testClockKindOn(system),
    withEffects(bridgeKind, bridgeEffects(bridgeRails)),
    ...makerRecordKinds(payeeDirectory),
    payments.kind,
    payouts.kind,
    withEffects(disputeKind, disputeEffects(options.stakeClaims === undefined ? stakeCompensation : options.stakeClaims)),
    ...webhooks.kinds,
    ...(relaying?.kinds ?? []),
    ...(deposits ? [deposits.kind] : []),
    ...(options.kinds ?? []),
  ])
    system.register(kind);
  await system.start();
  // Before any new transaction: a wallet whose nonces ran ahead of the chain would sign transactions that never mine.
  if (relaying)
    await reconcileNonces(system, relaying.chain, {
      maxFeePerGas: config.RELAYER_MAX_FEE_PER_GAS,
      now: () => clock.now(),
      logger: logger.child({ component: 'relayer' }),
      liveNodes: transport instanceof NatsTransport ? transport.liveNodes() : 1,
    });
  if (relaying) metrics.observe({ relayerWallets: () => relayerWalletReadings(system, relaying.chain) });
  await webhooks.start();
  await bridgeLauncher.start();
  // A node whose data belongs to another chain reads none: its indexer would only find the fork.
  chain = chainProblem ? null : await startChainSide(config, system, store, logger, opened);
  enclaveClient = await connectEnclave(config, enclave, metrics);
  const liquidity =
    chain && opened
      ? new LiquidityBook({ system, store, client: chain.client, logger: logger.child({ component: 'liquidity' }), escrow: opened.contracts.escrow })
      : null;
  await liquidity?.start();
  const payees = liquidity ? payeeDirectory : null;
  const now = () => new Date(clock.now()).toISOString();
  const rates = new RateSource(
    config.RATES_URL
      ? new HttpRateProvider({
          url: config.RATES_URL,
          apiKey: config.RATES_API_KEY,
          timeoutMs: config.RATES_TIMEOUT_MS,
          maxAgeMs: config.RATES_MAX_AGE_MS,
          clock,
        })
      : new LocalRateProvider(),
  );
  const orderbook =
    opened && liquidity
      ? await orderbookOf({ config, chain: opened, liquidity, rates, clock, enclave: enclaveClient, system, logger: logger.child({ component: 'orderbook' }) })
      : null;
  const market =
    chain && liquidity && orderbook
      ? await leaderboardOf({
          system,
          store,
          client: chain.client,
          liquidity,
          rates,
          escrow: orderbook.settings.escrow,
          chainId: orderbook.settings.chainId,
          clock,
          logger,
        })
      : null;
  // A kept local chain is seeded on its first run only; one that lives as long as its run, on every run.
  const makersLogger = logger.child({ component: 'local-makers' });
  const localChain = chain?.localChain;
  const seededMakers =
    localChain && payees && config.LOCAL_MAKERS
      ? keeping?.keptIn !== undefined
        ? await keptMakers(localChain, keeping.keptIn, payees, now(), makersLogger)
        : await seedMakers(localChain, payees, now(), makersLogger)
      : [];
  const readiness = liveReadinessOf({
    chain,
    opened,
    enclaveClient,
    payments: payments.chain,
    problem: chainProblem,
    logger: logger.child({ component: 'live-payments' }),
  });
  await readiness?.start();
  await deposits?.start();
  // Disputes over the local chain's payments are attested for its escrow, where stake compensation is recorded (docs/disputes.md).
  if (enclave && chain?.localChain)
    enclave.chains.set(chain.localChain.chainId, { paymentVerifier: chain.localChain.verifier, disputeVerifier: chain.localChain.escrow });
  const trustedSigners = (config.ENCLAVE_URL ? config.ENCLAVE_TRUSTED_SIGNERS : enclave ? [enclave.service.signer] : []) as `0x${string}`[];

  const ownsDataDir = store.adapter === 'embedded' && !options.store;
  const keptAdmin = await keptAdminToken(config, ownsDataDir);
  const cashoutKeys = new KeptKeys(store, now);
  const mail = await mailSide(config, logger.child({ component: 'mail' }));
  const supportDesk = options.supportDesk ?? (await LocalSupportDesk.open(store, now, logger.child({ component: 'support' })));
  const heap = new HeapHealth(logger);
  const rotation = new Rotation();
  const gateway = createGateway({
    rotation,
    logger,
    heap,
    store,
    bus,
    system,
    environment: config.NODE_ENV,
    version: packageJson.version,
    startedAt: Date.now(),
    ...(chain ? { indexerHealth: () => chain.indexerHealth() } : {}),
    ...(readiness ? { livePayments: () => readiness.reason() } : {}),
    rates,

    adminToken: config.PEER_ADMIN_TOKEN ?? keptAdmin?.token,
    trustedProxies: config.TRUSTED_PROXIES,
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE,
    limitStore: config.NATS_URL ? store : null,
    liveNodes: () => (transport instanceof NatsTransport ? transport.liveNodes() : 1),
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
    orderMaxUsdc: config.ORDER_MAX_USDC,
    // Without a configured secret, ids derived from idempotency keys differ per process; replays are still found by their key.
    idSecret: config.ID_SECRET ?? randomBytes(32).toString('hex'),
    now,
    deadLetters,
    metrics,
    liquidity,
    payees,
    orderbook,
    leaderboard: market?.leaderboard ?? null,
    depositBundles: market?.bundles ?? null,
    webhookPolicy: webhooks.policy,
    webhookTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
    events: eventLog,
    walletProviderSecrets: config.WALLET_PROVIDER_WEBHOOK_SECRET,
    payouts: { settings: payouts.settings, funding: payouts.funding, links: new PayoutLinks(cashoutKeys, () => url) },
    chargebacks: stakeCompensation,
    remediation: {
      actionsEnabled: config.REMEDIATION_ACTIONS_ENABLED,
      extensionsEnabled: config.REMEDIATION_EXTENSIONS_ENABLED,
      // Automated release needs the attestation service's seller path and a chain to fulfil on.
      sellerRelease: enclaveClient !== null && payments.chain !== null,
      sellerRailsOff: new Set(config.SELLER_RELEASE_RAILS_OFF),
      support: supportDesk,
      supportTimeoutMs: config.SUPPORT_TIMEOUT_MS,
    },
    cashout: {
      keys: cashoutKeys,
      mail: options.cashoutMail ?? signInMailOf(mail.mailer),
      signers: payoutSigners,
      payees: payeeDirectory,
      balances: walletBalances,
      bridges: conversions.bridges,
      connections: accountConnectionsOf(opened, trustedSigners),
    },
    dashboard: {
      mail: options.dashboardMail ?? dashboardMailOf(mail.mailer),
      // A browser takes no IP address as a passkey's relying party: a loopback node is the dashboard at localhost.
      origin: () => config.DASHBOARD_ORIGIN ?? url.replace('://127.0.0.1:', '://localhost:'),
    },
    makers: {
      // The listening URL is known only once the server listens, before any request can ask.
      origin: () => config.MAKER_AUTH_ORIGIN ?? url,
      signInChainIds: signInChainIds(chain?.localChain?.chainId ?? null),
      nonceTtlMs: config.MAKER_NONCE_TTL_MS,
      tokenTtlMs: config.MAKER_TOKEN_TTL_MS,
      historyPerMinute: config.TRANSACTION_HISTORY_PER_MINUTE,
      transfers: chain ? new WalletTransfers(chain.client) : null,
      atomicCreate: deposits ? { chain: deposits.chain, wallets: deposits.wallets, waitMs: config.ATOMIC_CREATE_WAIT_MS } : null,
    },
    payments: {
      chain: payments.chain,
      destinationChainId: payments.destinationChainId,
      fees: payments.fees,
      extremeSpreadBps: BigInt(config.ORDERBOOK_EXTREME_SPREAD_BPS),
      windowMs: config.PAYMENT_WINDOW_MS,
      crypto: payments.crypto,
      referrer: payments.referrer,
      bridgeWallet: bridgeRails.LIVE && payments.chain ? bridgeWallet : null,
      ...(readiness ? { unavailable: (rail: LiveRail) => readiness.unavailable(rail) } : {}),
      attestationServiceUrl: config.ENCLAVE_PUBLIC_URL ?? enclave?.server.httpUrl ?? '',
    },
    disputes: opened
      ? {
          // Without an attestation service to trust, every attestation is refused as unsigned by a trusted signer.
          trust: { chainId: opened.contracts.chainId, disputeVerifier: opened.contracts.escrow, signers: trustedSigners },
          transfers: chainTransfers(opened.client, opened.contracts.usdc),
        }
      : { trust: null, transfers: null },
    localWallet: conversions.simulator ? localWalletOf(conversions.simulator) : null,
    mailInbox: mail.inbox,
    ...(options.totalCap === undefined ? {} : { totalCap: options.totalCap }),
    checkoutPage: {
      simulatorUrl: enclave?.simulator?.url ?? null,
      conversionSimulatorUrl: conversions.simulator?.url ?? null,
      enclave: config.ENCLAVE_URL
        ? { measurement: config.ENCLAVE_MEASUREMENT!, signers: config.ENCLAVE_TRUSTED_SIGNERS }
        : enclave
          ? { measurement: enclave.service.attestationDocument().measurement, signers: [enclave.service.signer] }
          : null,
      chainId: payments.chain?.chainId ?? null,
    },
  });
  const server = createGatewayServer(gateway.app.callback());
  const url = await listen(server, config.PORT, config.HOST);
  // The local provider reports activity at payouts' deposit addresses to this node, once it listens.
  if (conversions.simulator) conversions.simulator.activityUrl = `${url}/api/v1/providers/conversion/funding-activity`;
  // Opened once the node serves: keys made by a start that then fails (a port taken) would never be shown.
  // A restart over a data folder that already holds merchants opens no second demo merchant.
  const welcome: NodeWelcome | null = ownsDataDir
    ? {
        demoMerchant: (await system.views(merchantKind).count({})) === 0 ? await openDemoMerchant(new MerchantAdmin(system, now)) : null,
        adminToken: keptAdmin,
      }
    : null;
  logger.info({ url, metricsUrl: metricsServer?.url, store: store.adapter, transport: transport.adapter, bus: bus.adapter }, 'node started');
  const stopHeapWatch = heap.watch(HEAP_CHECK_MS);

  let stopping: Promise<void> | undefined;
  // What the stop is waiting on now: a stop that outlasts DRAIN_TIMEOUT_MS names it (deploy/process.ts).
  let stepNow: string | null = null;
  const step = async (name: string, run: () => Promise<unknown> | unknown) => {
    stepNow = name;
    await run();
  };
  const stop = () =>
    (stopping ??= (async () => {
      // Out of the balancer's rotation first, still answering what it sends until it has noticed.
      rotation.leave();
      if (config.ROTATION_LEAVE_MS > 0) {
        logger.info({ ms: config.ROTATION_LEAVE_MS }, 'leaving the rotation');
        await step('leaving the rotation', () => new Promise((resolve) => setTimeout(resolve, config.ROTATION_LEAVE_MS)));
      }
      // Event streams never end by themselves: ended first, their connections close with the idle ones.
      stopHeapWatch();
      eventLog.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      readiness?.stop();
      await step('the intent ledger', () => market?.ledger.stop());
      await step('the liquidity book', () => liquidity?.stop());
      await step('conversions', () => conversions.stop());
      await step('the chain side', () => chain?.stop());
      enclaveClient?.close();
      await step('the attestation service', () => enclave?.stop());
      await step('webhooks', () => webhooks.stop());
      await step('bridges', () => bridgeLauncher.stop());
      await step('draining actors and handing shards over', () => system.drain());
      await step('requests in flight', () => closed);
      await step('mail', () => mail.stop());
      await step('the event bus', () => bus.close());
      await step('the NATS connection', () => nc?.drain());
      if (!options.store) await step('the store', () => baseStore.close());
      await step('the metrics server', () => metricsServer?.close());
      stepNow = null;
      logger.info('node stopped');
    })());

  const kill = async () => {
    stopHeapWatch();
    server.closeAllConnections();
    server.close();
    if (transport instanceof NatsTransport) transport.halt();
    readiness?.stop();
    await market?.ledger.stop();
    await liquidity?.stop();
    await conversions.stop();
    await chain?.stop();
    enclaveClient?.close();
    await enclave?.stop();
    eventLog.close();
    await webhooks.stop();
    await bridgeLauncher.stop();
    await system.halt();
    await nc?.close();
    await mail.stop();
    // Abrupt, but the data folder is released: what the journal took is on disk already.
    if (!options.store && baseStore instanceof EmbeddedStore) await baseStore.close();
    await metricsServer?.close();
  };

  return {
    config,
    system,
    store,
    bus,
    transport,
    server,
    routes: gateway.routes,
    chain,
    relayer: relaying ? new Relayer(system) : null,
    bridgeRails,
    enclaveClient,
    enclave,
    liquidity,
    intents: market?.ledger ?? null,
    payees,
    payeeDirectory,
    seededMakers,
    payments: {
      chain: payments.chain,
      fees: payments.fees,
      destinationChainId: payments.destinationChainId,
      crypto: payments.crypto,
      referrer: payments.referrer,
    },
    conversions,
    livePayments: readiness,
    events: { log: eventLog, recorder },
    mail: { mailer: mail.mailer, inbox: mail.inbox },
    url,
    metricsUrl: metricsServer?.url ?? null,
    welcome,
    stop,
    stoppingAt: () => stepNow,
    kill,
  };
}
