/**
 * Builds the Koa application: cross-cutting middleware first (request id, envelope,
 * client address, the global rate limit), then the admin API and GET /metrics, each in
 * a guarded area behind the admin token, then one router per API area, all matching
 * exact paths (routing.ts), and last the answer to whatever no route served (404, 405,
 * 501, OPTIONS).
 */
import type { StakeCompensation } from '../actors/chain/stake-compensation.js';
import type Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Logger } from 'pino';
import type { RateSource } from '../actors/adapters/rates/rate-source.js';
import type { DeadLetterStore } from '../actors/runtime/dead-letters.js';
import { MerchantAccounts } from './merchants/merchant-accounts.js';
import { MerchantAdmin } from './merchants/merchant-admin.js';
import { ActorInspector } from './inspector/actor-inspector.js';
import { EventSender } from './inspector/event-sender.js';
import { MachineCharts } from './engineers/machine-charts.js';
import { ENGINEERS_PATH, engineersPageRoutes } from './engineers/engineers-page.js';
import { KeyUsage } from './merchants/key-usage.js';
import { adminAuth } from './middleware/admin-token.js';
import { apiKeyAuth } from './middleware/api-key.js';
import { jsonBody } from './middleware/body.js';
import { clientIp } from './middleware/client-ip.js';
import { errorEnvelope } from './middleware/errors.js';
import { guardedArea } from './middleware/guarded-area.js';
import { httpMetrics } from './middleware/http-metrics.js';
import { merchantRateLimit, rateLimit } from './middleware/rate-limit.js';
import { Budgets } from './limits/index.js';
import type { Store } from '../actors/store/store.js';
import { requestContext } from './middleware/request-context.js';
import { unmatched } from './middleware/unmatched.js';
import { exactRouter, routesOf, underPrefix, type GatewayRoute } from './routing.js';
import type { GatewayState } from './state.js';
import { ADMIN_AREA, adminRouter } from './admin/admin-area.js';
import { apiDescription } from './service/api-description.js';
import { docsOperations } from './service/docs-operations.js';
import { healthOperations, type HealthDependencies } from './service/health-operations.js';
import { probeOperations } from './service/probe-operations.js';
import { leavingCloses } from './service/leaving-closes.js';
import { merchantOperations } from './merchants/merchant-operations.js';
import { METRICS_PATH, metricsRouter, type MetricsSource } from './service/metrics-operations.js';
import { orderOperations } from './orders/order-operations.js';
import { operationRouter } from './operations/router.js';
import type { Mounting } from './operations/operation.js';
import { formatUsdc } from '../machines/money.js';
import { checkoutOperations } from './checkout/checkout-operations.js';
import { paymentOperations, REMEDIATION_READS_PER_MINUTE } from './payments/payment-operations.js';
import { ACTIONS_PER_MINUTE, actionOperations } from './actions/action-operations.js';
import type { RemediationSettings } from './actions/create-action.js';
import { payoutOperations } from './payouts/payout-operations.js';
import { refundOperations } from './refunds/refund-operations.js';
import { disputeOperations } from './disputes/dispute-operations.js';
import type { DisputeTrust } from './disputes/dispute-attestation.js';
import { DisputePaymentClaims, type DisputeTransfers } from './disputes/dispute-transfer.js';
import type { PayoutSettingsOfNode } from './payouts/create-payout.js';
import type { PayoutLinks } from './payouts/payout-links.js';
import { cashoutOperations } from './cashout/cashout-operations.js';
import { cashoutActionOperations } from './cashout/cashout-action-operations.js';
import { cashoutCryptoOperations } from './cashout/cashout-crypto-operations.js';
import { cashoutConnectOperations } from './cashout/cashout-connect-operation.js';
import type { PayoutSignerProvider } from '../actors/adapters/wallet-provider/payout-signers.js';
import type { WalletBalances } from '../actors/payouts/payout-effects.js';
import type { KeptKeys } from './cashout/kept-keys.js';
import type { AccountConnections } from './cashout/account-connection.js';
import type { PayoutBridgeProvider } from '../actors/adapters/conversion/payout-bridge.js';
import { LoginTokens } from './cashout/login-tokens.js';
import type { SignInMail } from './cashout/sign-in-mail.js';
import type { FundingProvider } from '../actors/adapters/conversion/funding-provider.js';
import { webhookOperations } from './webhooks/webhook-operations.js';
import { eventOperations } from './events/event-operations.js';
import { integrationOperations } from './integration/integration-operations.js';
import { testClockOperations } from './test-clocks/test-clock-operations.js';
import { TestClocks } from './test-clocks/test-clocks.js';
import { walletProviderOperations } from './wallet-provider/wallet-provider-operations.js';
import { marketOperations } from './market/market-operations.js';
import { providerOperations } from './providers/provider-operations.js';
import { ProviderFiles } from './providers/provider-files.js';
import { makerAreas } from './makers/maker-areas.js';
import { makerRecordOperations } from './makers/maker-record-operations.js';
import { MakerRegistry } from './makers/maker-registry.js';
import type { MakerSettings } from './wallet-auth/maker-settings.js';
import type { Orderbook } from './market/orderbook.js';
import type { Leaderboard } from './market/leaderboard.js';
import type { DepositBundles } from './market/deposit-bundle.js';
import { WebhookSetup } from './webhooks/webhook-setup.js';
import { DeliveryLog } from './webhooks/delivery-log.js';
import { TOTAL_CAP } from './paged-views.js';
import type { DestinationPolicy } from '../actors/webhooks/destination-guard.js';
import type { Environment } from '../machines/webhook/index.js';
import { HostedOrders } from './orders/hosted-orders.js';
import type { PaymentSettings } from './checkout/quotes.js';
import { checkoutPageRoutes } from './hosted-page/checkout-page.js';
import { cashoutPageRoutes } from './hosted-page/cashout-page.js';
import { dashboardPageRoutes } from './hosted-page/dashboard-page.js';
import type { CheckoutPageConfig } from './hosted-page/client/page-config.js';
import { landingPage } from './hosted-page/landing-page.js';
import { DemoOrders } from './dev/demo-orders.js';
import { devOperations } from './dev/dev-operations.js';
import type { LocalWallet } from './dev/local-wallet.js';
import type { MailInbox } from './dev/mail-inbox.js';
import type { LiquidityBook, PayeeDirectory } from '../actors/market/index.js';
import type { MerchantEventLog } from '../actors/merchant-events/event-log.js';
import { AuditLog, auditSessions } from './dashboard/audit-log.js';
import { auditOperations } from './dashboard/audit-operations.js';
import { DashboardAuth } from './dashboard/dashboard-auth.js';
import { apiKeyOperations } from './dashboard/api-key-operations.js';
import { dashboardAuthOperations } from './dashboard/dashboard-auth-operations.js';
import type { DashboardDependencies } from './dashboard/dashboard-dependencies.js';
import type { DashboardMail } from './dashboard/dashboard-mail.js';
import { resizeOperations } from './orders/resize-operations.js';
import { brandingOperations } from './dashboard/branding-operations.js';
import { dashboardOrderOperations } from './dashboard/dashboard-order-operations.js';
import { merchantGuard, sessionGuard, withApiKeyPrincipal } from './dashboard/session-guard.js';
import { CsrfTokens } from './dashboard/session-tokens.js';
import { teamOperations } from './dashboard/team-operations.js';
import { passkeyOperations } from './dashboard/passkey-operations.js';
import { DashboardPasskeys } from './dashboard/passkeys.js';

export interface GatewayDependencies extends HealthDependencies {
  logger: Logger;
  rates: RateSource;
  /** Unset, the admin API is not mounted and its paths are unknown paths. */
  adminToken: string | undefined;
  trustedProxies: string[];
  rateLimitPerMinute: number;
  /** The cluster's store, where every node counts the rate limits (gateway/limits/); null or unset on a node alone, which counts them in memory. */
  limitStore?: Store | null;
  /** The nodes alive now (the shard leases' count): each allows its share of a limit while the limit store is down. */
  liveNodes?: () => number;
  bodyLimitBytes: number;
  idSecret: string;
  /** The largest order, in USDC base units. */
  orderMaxUsdc: bigint;
  /** ISO time for the records commands write. */
  now(): string;
  /** The node's dead letters, listed, retried and discarded by the admin API; unset, those routes are not mounted. */
  deadLetters?: DeadLetterStore;
  /** The node's metrics, served at GET /metrics behind the admin token; unset (or without a token), that route is not mounted. */
  metrics?: MetricsSource;
  /** The makers' deposits live payments are quoted from; null on a node without a chain (sandbox payments only). */
  liquidity: LiquidityBook | null;
  /** Whom each deposit is paid to; null where live payments are not taken. */
  payees: PayeeDirectory | null;
  /** Document 3's public orderbook; null on a node that reads no chain. */
  orderbook: Orderbook | null;
  /** Document 3's maker leaderboard; null on a node that reads no chain. */
  leaderboard: Leaderboard | null;
  /** Document 3's deposit bundles; null on a node that reads no chain. */
  depositBundles: DepositBundles | null;
  payments: PaymentSettings;
  /** Where a webhook of each environment may point (the node's WEBHOOK_ALLOW_PRIVATE and NODE_ENV). */
  webhookPolicy(environment: Environment): DestinationPolicy;
  /** How long one webhook attempt may take: the test event waits that long for its answer. */
  webhookTimeoutMs: number;
  /** The merchants' events of the last 30 days, listed and streamed (docs/events.md). */
  events: MerchantEventLog;
  /** The hosted checkout page's view of the node: the simulator, the enclave to trust, the chain. */
  checkoutPage: Omit<CheckoutPageConfig, 'attestationServiceUrl'>;
  /** Makers' sign-in, referrals and transaction history (docs/maker-auth.md). */
  makers: MakerSettings;
  /** Document 2's payouts: the node's payout settings, the provider the cancel asks, the customer's checkout links. */
  payouts: { settings: PayoutSettingsOfNode; funding: FundingProvider | null; links: PayoutLinks };
  /** The customer's checkout of a payout: the keys its links, codes and logins are signed under, and where codes are mailed. */
  cashout: {
    keys: KeptKeys;
    mail: SignInMail;
    signers: PayoutSignerProvider | null;
    payees: PayeeDirectory;
    balances: WalletBalances | null;
    /** How crypto payouts to other networks and tokens are priced and bound; null without a conversion provider. */
    bridges: PayoutBridgeProvider | null;
    /** How a connected account's attestation is checked; null without a chain or attestation service. */
    connections: AccountConnections | null;
  };
  /** The merchant dashboard's sign-in: where its codes and invitations are mailed (docs/dashboard-auth.md). */
  dashboard: {
    mail: DashboardMail;
    /** The dashboard's origin, the passkeys' relying party (DASHBOARD_ORIGIN, or the node's address; known once it listens). */
    origin: () => string;
  };
  /** WALLET_PROVIDER_WEBHOOK_SECRET: the wallet provider's signing secrets; unset, its webhook answers 503. */
  walletProviderSecrets?: readonly string[];
  /** Records chargebacks on chain for staff's trigger (docs/chargebacks.md); absent or null on a node without a chain and relayer. */
  chargebacks?: StakeCompensation | null;
  /** Document 1's remediation actions: the node's switches, its seller path, the support side actions wait on. */
  remediation: RemediationSettings;
  /** Disputes (docs/disputes.md): what attestations are checked against and how the merchant's payment is read; null on a node that reads no chain. */
  disputes?: { trust: DisputeTrust | null; transfers: DisputeTransfers | null };
  /** Development: the local test wallet POST /dev/local-wallet/transfers sends from; absent without the local provider. */
  localWallet?: LocalWallet | null;
  /** Development: the mail GET /dev/mail shows; absent where the node sends through SMTP_URL. */
  mailInbox?: MailInbox | null;
  /** Where list totals stop counting: TOTAL_CAP unless a test lowers it to reach it cheaply. */
  totalCap?: number;
}

export interface Gateway {
  app: Koa<GatewayState>;
  /** Every route it serves, as registered: what a route-walking test or a tool enumerates. */
  routes: GatewayRoute[];
}

export function createGateway(deps: GatewayDependencies): Gateway {
  const app = new Koa<GatewayState>();
  app.proxy = false;
  app.silent = true;
  app.use(requestContext(deps.logger));
  app.use(httpMetrics(deps.system.metrics));
  app.use(errorEnvelope());
  app.use(clientIp(deps.trustedProxies));
  if (deps.rotation) app.use(leavingCloses(deps.rotation));

  const accounts = new MerchantAccounts(deps.system);
  const keyUsage = new KeyUsage(deps.system, deps.now, deps.logger);
  const checkKey = apiKeyAuth((keyHash) => accounts.byKeyHash(keyHash));
  // Only an answered request counts as the key in use: a refused one changes nothing, bookkeeping included.
  const auth: Middleware<GatewayState> = withApiKeyPrincipal((ctx, next) =>
    checkKey(ctx, async () => {
      await next();
      if (ctx.status < 400) keyUsage.note(ctx.state.account);
    }),
  );
  const body = jsonBody(deps.bodyLimitBytes);
  // Every limit counted for the whole cluster where the node is in one (gateway/limits/).
  const budgets = deps.limitStore
    ? new Budgets({ store: deps.limitStore, logger: deps.logger, now: () => Date.parse(deps.now()), liveNodes: deps.liveNodes })
    : Budgets.inMemory();
  // The merchant dashboard's sessions (docs/dashboard-auth.md): the guards, the sign-in, the audit log.
  const csrf = new CsrfTokens(deps.idSecret);
  const totalCap = deps.totalCap ?? TOTAL_CAP;
  const audit = new AuditLog(deps.store, deps.now, totalCap);
  const sessions = { system: deps.system, accounts, csrf, now: deps.now };
  const dashboard: DashboardDependencies = {
    ...sessions,
    audit,
    mail: deps.dashboard.mail,
    passkeys: new DashboardPasskeys({ system: deps.system, accounts, store: deps.store, origin: deps.dashboard.origin, now: deps.now }),
    secureCookies: deps.environment !== 'development',
    auth: new DashboardAuth({
      system: deps.system,
      accounts,
      keys: deps.cashout.keys,
      mail: deps.dashboard.mail,
      audit,
      now: deps.now,
      logger: deps.logger,
      budgets,
    }),
  };
  const mounting: Mounting = {
    guards: { apiKey: auth, session: sessionGuard(sessions), merchant: merchantGuard(sessions, auth) },
    body,
    audit: auditSessions(audit),
  };
  const settings = { orderMaxUsdc: formatUsdc(deps.orderMaxUsdc) };
  const mounted: Router<GatewayState>[] = [];
  // Ahead of the rate limit (probe-operations.ts).
  const probes = operationRouter(probeOperations(), deps, mounting);
  app.use(probes.routes());
  mounted.push(probes);
  app.use(rateLimit({ perMinute: deps.rateLimitPerMinute, budgets }));
  if (deps.adminToken) {
    // Ahead of the guard: the engineers' page holds no data, and a browser opening it cannot send the token (gateway/engineers/).
    const engineers = engineersPageRoutes();
    app.use(underPrefix(ENGINEERS_PATH, engineers));
    mounted.push(engineers);
    const guard = adminAuth(deps.adminToken);
    const inspector = { system: deps.system, inspector: new ActorInspector(deps.system), events: new EventSender(deps.system, deps.environment) };
    const admin = adminRouter(
      {
        admin: new MerchantAdmin(deps.system, deps.now),
        accounts,
        deadLetters: deps.deadLetters,
        inspector,
        machines: new MachineCharts(deps.system),
        payouts: { system: deps.system, now: deps.now, links: deps.payouts.links },
        actions: { system: deps.system, now: deps.now },
        chargebacks: { system: deps.system, compensation: deps.chargebacks ?? null },
      },
      mounting,
    );
    app.use(guardedArea(ADMIN_AREA, guard, admin));
    mounted.push(admin);
    if (deps.metrics) {
      const metrics = metricsRouter(deps.metrics);
      app.use(guardedArea(METRICS_PATH, guard, metrics));
      mounted.push(metrics);
    }
  }
  // One router holds every API area's routes, so a request is matched once rather than once per area.
  const api = exactRouter();
  const hostedOrders = new HostedOrders(deps.system, accounts, deps.rates);
  const webhookSetup = new WebhookSetup(deps);
  const clocks = new TestClocks(deps.system, deps.now);
  // A development node greets a bare `/` and makes demo orders for it; a production one has neither.
  const landing = deps.environment === 'development' ? landingPage({ engineersPage: Boolean(deps.adminToken) }) : null;
  // Both hosted pages seal platform sessions to the same attestation service: the order checkout a buyer's payment, the payout checkout a customer's account.
  const pageConfig = { ...deps.checkoutPage, attestationServiceUrl: deps.payments.attestationServiceUrl || null };
  const nowMs = () => Date.parse(deps.now());
  const logins = new LoginTokens(deps.cashout.keys, nowMs);
  const cashout = {
    system: deps.system,
    links: deps.payouts.links,
    logins,
    keys: deps.cashout.keys,
    mail: deps.cashout.mail,
    signers: deps.cashout.signers,
    payees: deps.cashout.payees,
    balances: deps.cashout.balances,
    bridges: deps.cashout.bridges,
    connections: deps.cashout.connections,
    rates: deps.rates,
    escrow: deps.payments.chain?.escrow ?? null,
    environment: deps.environment,
    now: nowMs,
  };
  const payoutDeps = {
    system: deps.system,
    now: deps.now,
    payoutSettings: deps.payouts.settings,
    funding: deps.payouts.funding,
    checkoutUrl: (payoutId: string) => deps.payouts.links.checkoutUrl(payoutId),
  };
  // One budget per merchant each, shared by the routes document 1 counts together.
  const remediationReads = merchantRateLimit('merchant-reads', { perMinute: REMEDIATION_READS_PER_MINUTE, budgets }) as Middleware<GatewayState>;
  const actionLimit = merchantRateLimit('merchant-actions', { perMinute: ACTIONS_PER_MINUTE, budgets }) as Middleware<GatewayState>;
  const areas = [
    operationRouter(healthOperations(), deps, mounting),
    operationRouter(docsOperations(), apiDescription(deps.version, deps), mounting),
    operationRouter(merchantOperations(), { accounts }, mounting),
    operationRouter(dashboardAuthOperations(), dashboard, mounting),
    operationRouter(teamOperations(), dashboard, mounting),
    operationRouter(passkeyOperations(), dashboard, mounting),
    operationRouter(dashboardOrderOperations(), dashboard, mounting),
    operationRouter(brandingOperations(), dashboard, mounting),
    operationRouter(auditOperations(), dashboard, mounting),
    operationRouter(orderOperations(settings), { ...deps, clocks, hostedOrders, totalCap }, mounting),
    operationRouter(apiKeyOperations(), dashboard, mounting),
    operationRouter(
      paymentOperations(),
      { ...deps, fees: deps.payments.fees, extremeSpreadBps: deps.payments.extremeSpreadBps, remediationReads, totalCap },
      mounting,
    ),
    operationRouter(actionOperations(), { ...deps, actionLimit, remediationReads, audit }, mounting),
    operationRouter(checkoutOperations(), { ...deps, hostedOrders }, mounting),
    operationRouter(payoutOperations(), { ...payoutDeps, totalCap }, mounting),
    operationRouter(refundOperations(), { ...payoutDeps, remediationReads }, mounting),
    operationRouter(resizeOperations(), { system: deps.system, orderMaxUsdc: deps.orderMaxUsdc, now: deps.now, audit }, mounting),
    operationRouter(
      disputeOperations(),
      {
        system: deps.system,
        liquidity: deps.liquidity,
        now: deps.now,
        disputes: { trust: deps.disputes?.trust ?? null, transfers: deps.disputes?.transfers ?? null, claims: new DisputePaymentClaims(deps.store) },
        audit,
        totalCap,
      },
      mounting,
    ),
    operationRouter(
      webhookOperations(),
      {
        setup: webhookSetup,
        deliveries: new DeliveryLog({ system: deps.system, setup: webhookSetup, now: deps.now, attemptTimeoutMs: deps.webhookTimeoutMs, totalCap }),
      },
      mounting,
    ),
    operationRouter(cashoutOperations(), cashout, mounting),
    operationRouter(cashoutActionOperations(), cashout, mounting),
    operationRouter(cashoutCryptoOperations(), cashout, mounting),
    operationRouter(cashoutConnectOperations(), cashout, mounting),
    operationRouter(eventOperations(), { events: deps.events, accounts, totalCap }, mounting),
    operationRouter(integrationOperations(), { ...deps, accounts, clocks }, mounting),
    operationRouter(testClockOperations(), { clocks }, mounting),
    operationRouter(walletProviderOperations((deps.walletProviderSecrets ?? []).length > 0), deps, mounting),
    operationRouter(marketOperations(), deps, mounting),
    operationRouter(providerOperations(), { files: new ProviderFiles() }, mounting),
    makerAreas({ ...deps, budgets }, mounting),
    operationRouter(makerRecordOperations(), { registry: new MakerRegistry(deps.system, deps.now) }, mounting),
    checkoutPageRoutes(pageConfig, landing?.shell),
    cashoutPageRoutes({ connect: pageConfig, caughtMail: Boolean(landing && deps.mailInbox) }),
    dashboardPageRoutes({ caughtMail: Boolean(landing && deps.mailInbox) }),
    ...(landing
      ? [
          landing.assets,
          operationRouter(
            devOperations(),
            { demoOrders: new DemoOrders({ ...deps, accounts, clocks }), localWallet: deps.localWallet ?? null, mailInbox: deps.mailInbox ?? null },
            mounting,
          ),
        ]
      : []),
  ];
  for (const router of areas) {
    api.use(router.routes());
    mounted.push(router);
  }
  app.use(api.routes());
  app.use(unmatched());
  return { app, routes: routesOf(mounted) };
}
