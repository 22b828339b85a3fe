/**
 * A gateway over an actor system a test assembled itself (its own store, bus or
 * metrics), on a free loopback port, closed when the test ends.
 */
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';
import { createLogger, type ActorSystem, type Clock, type EventBus, type Store } from '../../actors/index.js';
import { LocalRateProvider, RateSource } from '../../actors/adapters/rates/index.js';
import { createGateway, createGatewayServer, type GatewayDependencies, type GatewayRoute } from '../../gateway/index.js';
import { MerchantEventLog } from '../../actors/merchant-events/index.js';
import { ADMIN_TOKEN } from './gateway.js';
import { PayoutLinks } from '../../gateway/payouts/payout-links.js';
import { KeptKeys } from '../../gateway/cashout/kept-keys.js';
import { PayeeDirectory } from '../../actors/market/payee-directory.js';
import { HeapHealth } from '../../gateway/service/heap-health.js';

export async function serveGateway(
  t: ExecutionContext,
  parts: { system: ActorSystem; store: Store; bus: EventBus; clock: Clock },
  overrides: Partial<GatewayDependencies> = {},
): Promise<{ url: string; routes: GatewayRoute[] }> {
  const events = await MerchantEventLog.open(parts.store, parts.clock);
  const cashoutKeys = new KeptKeys(parts.store, () => new Date(parts.clock.now()).toISOString());
  const logger = overrides.logger ?? createLogger({ level: 'silent' });
  const gateway = createGateway({
    logger,
    heap: new HeapHealth(logger),
    ...parts,
    environment: 'test',
    version: '0.0.0-test',
    startedAt: Date.now(),
    rates: new RateSource(new LocalRateProvider()),
    adminToken: ADMIN_TOKEN,
    trustedProxies: [],
    rateLimitPerMinute: 1_000_000,
    bodyLimitBytes: 100_000,
    idSecret: 'gateway-app-test-secret-0123456789abcdef',
    orderMaxUsdc: 100_000_000_000n,
    now: () => new Date(parts.clock.now()).toISOString(),
    liquidity: null,
    payees: null,
    orderbook: null,
    leaderboard: null,
    depositBundles: null,
    payments: {
      chain: null,
      destinationChainId: null,
      fees: { protocolFeeBps: 0, platformFeeBps: 50 },
      extremeSpreadBps: 2_000n,
      windowMs: 3_600_000,
      attestationServiceUrl: '',
      crypto: null,
    },
    checkoutPage: { simulatorUrl: null, conversionSimulatorUrl: null, enclave: null, chainId: null },
    webhookPolicy: () => ({ requireHttps: false, allowPrivate: true }),
    webhookTimeoutMs: 10_000,
    events,
    payouts: {
      settings: {
        serviceWalletAddress: null,
        railsOff: new Set(),
        fundingTokensOff: new Set(),
        fundingWindowMs: 86_400_000,
        pollMs: 30_000,
        prepareTimeoutMs: 10_000,
      },
      funding: null,
      links: new PayoutLinks(cashoutKeys, () => 'http://127.0.0.1'),
    },
    remediation: {
      actionsEnabled: true,
      extensionsEnabled: true,
      sellerRelease: false,
      sellerRailsOff: new Set(),
      support: { requestApproval: async () => {} },
      supportTimeoutMs: 1_000,
    },
    cashout: {
      keys: cashoutKeys,
      signers: null,
      balances: null,
      bridges: null,
      connections: null,
      payees: await PayeeDirectory.open(parts.store),
      mail: {
        sendCode: async () => {
          throw new Error('this gateway has no mailer');
        },
      },
    },
    dashboard: {
      mail: {
        sendCode: async () => {
          throw new Error('this gateway has no mailer');
        },
        sendInvitation: async () => {
          throw new Error('this gateway has no mailer');
        },
      },
      origin: () => 'http://localhost',
    },
    makers: {
      origin: () => 'http://127.0.0.1',
      signInChainIds: [8453],
      nonceTtlMs: 600_000,
      tokenTtlMs: 86_400_000,
      historyPerMinute: 30,
      transfers: null,
      atomicCreate: null,
    },
    ...overrides,
  });
  const server = createGatewayServer(gateway.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    events.close();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, routes: gateway.routes };
}
