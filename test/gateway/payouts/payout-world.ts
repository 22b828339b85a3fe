/**
 * A test gateway with payouts on the in-memory providers (test/support/payout-fakes.ts), one
 * live merchant whose payout settings are set through its actor, and the merchant's payout
 * routes as small helpers. Optionally a webhook receiver registered on the live account.
 */
import type { ExecutionContext } from 'ava';
import { decode } from '../../../actors/codec.js';
import { loadConfig, type Config } from '../../../actors/config.js';
import { merchantKind } from '../../../actors/kinds/merchant-kind.js';
import type { PayoutContext, PayoutSettings } from '../../../machines/payout/index.js';
import type { SignInMail } from '../../../gateway/cashout/sign-in-mail.js';
import { advance, answerOf } from '../../support/checkout.js';
import { startTestGateway, type ApiResponse, type TestGateway } from '../../support/gateway.js';
import { FakeBalances, FakeFunding, FakeWallets, SERVICE_WALLET, payoutBody } from '../../support/payout-fakes.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';

export const MERCHANT_WALLET = '0x2222222222222222222222222222222222222222';
export const HOUR = 60 * 60 * 1000;
export const USDC = 1_000_000n;

/** Document 2's worked settings: 100 bps to the merchant's wallet, 200 bps to the service, a 100 USDC step. */
export const SETTINGS: PayoutSettings = {
  methods: ['venmo', 'zelle', 'routea_8453'],
  merchantFeeBps: 100,
  merchantWalletAddress: MERCHANT_WALLET,
  serviceFeeBps: 200,
  fundingTokens: null,
  payoutStepUsdc: 100n * USDC,
};

export type Merchant = Awaited<ReturnType<TestGateway['createMerchant']>>;

export interface PayoutWorld {
  gateway: TestGateway;
  funding: FakeFunding;
  wallets: FakeWallets;
  balances: FakeBalances;
  merchant: Merchant;
  key: string;
  receiver: Receiver | null;
  /** Replaces a merchant's payout settings (null: none), as operators set them. */
  setSettings(settings: PayoutSettings | null, merchantId?: string): Promise<void>;
  /** Another live merchant on the same node, with `settings`. */
  otherMerchant(settings?: PayoutSettings | null): Promise<Merchant>;
  create(body?: unknown, idempotencyKey?: string | null, apiKey?: string): Promise<ApiResponse>;
  /** A create that must answer 201: its responseObject. */
  created(body?: unknown, idempotencyKey?: string): Promise<any>;
  read(id: string, apiKey?: string): Promise<ApiResponse>;
  /** The payout as GET answers it (200 required). */
  view(id: string): Promise<any>;
  list(query?: string, apiKey?: string): Promise<ApiResponse>;
  cancel(id: string, apiKey?: string): Promise<ApiResponse>;
  /** The provider reports activity at the payout's deposit address; resolves once the check it starts is done. */
  activity(payoutId: string): Promise<void>;
  /** The payout actor's context as stored (what no route shows: funding issues, the timeline). */
  context(payoutId: string): Promise<PayoutContext>;
  advance(ms: number): Promise<void>;
  /** The node's clock as ISO, `offsetMs` from now. */
  iso(offsetMs?: number): string;
}

let keys = 0;
/** A fresh Idempotency-Key. */
export const newKey = () => `payout-key-${String(++keys).padStart(4, '0')}-${Math.random().toString(36).slice(2, 8)}`;

export async function payoutWorld(
  t: ExecutionContext,
  options: { config?: Partial<Config>; env?: Record<string, string>; settings?: PayoutSettings | null; webhooks?: boolean; cashoutMail?: SignInMail } = {},
): Promise<PayoutWorld> {
  // Switches given as the environment writes them, parsed as a node parses them.
  const parsed: Partial<Config> = {};
  if (options.env) {
    const loaded = loadConfig(options.env);
    for (const name of Object.keys(options.env) as Array<keyof Config>) Object.assign(parsed, { [name]: loaded[name] });
  }
  const funding = new FakeFunding();
  const wallets = new FakeWallets();
  const balances = new FakeBalances();
  const gateway = await startTestGateway(
    { PAYOUT_FUNDING_POLL_MS: HOUR, WEBHOOK_ALLOW_PRIVATE: true, WEBHOOK_TIMEOUT_MS: 2_000, ...parsed, ...options.config },
    {
      payoutProviders: {
        funding,
        wallets,
        balances,
        deliveries: funding,
        settlement: {
          chain: { chainId: 8453, escrow: '0x0000000000000000000000000000000000000001', orchestrator: '0x0000000000000000000000000000000000000002' },
          usdc: '0x0000000000000000000000000000000000000003',
        },
        serviceWalletAddress: SERVICE_WALLET,
      },
      ...(options.cashoutMail ? { cashoutMail: options.cashoutMail } : {}),
    },
  );
  t.teardown(() => gateway.stop());
  const merchant = await gateway.createMerchant();
  const iso = (offsetMs = 0) => new Date(gateway.clock.now() + offsetMs).toISOString();
  const setSettings = async (settings: PayoutSettings | null, merchantId = merchant.liveId) => {
    await gateway.node.system.ask(merchantKind, merchantId, { type: 'UPDATE_SETTINGS', changes: { payouts: settings }, at: iso() });
  };
  if (options.settings !== null) await setSettings(options.settings ?? SETTINGS);
  let receiver: Receiver | null = null;
  if (options.webhooks) {
    const started = await startReceiver();
    receiver = started;
    t.teardown(() => started.close());
    answerOf(await gateway.request('POST', '/api/v1/webhooks', { key: merchant.liveKey, body: { url: `${started.url}/hooks` } }), 201, 'webhook create');
  }
  const create: PayoutWorld['create'] = (body = payoutBody(), idempotencyKey = newKey(), apiKey = merchant.liveKey) =>
    gateway.request('POST', '/api/v1/payouts', {
      key: apiKey,
      body,
      headers: idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey },
    });
  const read: PayoutWorld['read'] = (id, apiKey = merchant.liveKey) => gateway.request('GET', `/api/v1/payouts/${id}`, { key: apiKey });
  return {
    gateway,
    funding,
    wallets,
    balances,
    merchant,
    key: merchant.liveKey,
    receiver,
    setSettings,
    async otherMerchant(settings = SETTINGS) {
      const other = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x4444444444444444444444444444444444444444' });
      if (settings) await setSettings(settings, other.liveId);
      return other;
    },
    create,
    async created(body, idempotencyKey) {
      return answerOf(await create(body, idempotencyKey), 201, 'payout create');
    },
    read,
    async view(id) {
      return answerOf(await read(id), 200, 'payout read');
    },
    list: (query = '', apiKey = merchant.liveKey) => gateway.request('GET', `/api/v1/payouts${query ? `?${query}` : ''}`, { key: apiKey }),
    cancel: (id, apiKey = merchant.liveKey) => gateway.request('POST', `/api/v1/payouts/${id}/cancel`, { key: apiKey }),
    async activity(payoutId) {
      answerOf(
        await gateway.request('POST', '/api/v1/providers/conversion/funding-activity', { body: { requestId: `req_${payoutId}` } }),
        202,
        'funding activity',
      );
      await gateway.node.system.effectsIdle();
    },
    async context(payoutId) {
      const doc = await gateway.node.system.documents('payout').findOne({ _id: payoutId });
      if (!doc) throw new Error(`no payout ${payoutId}`);
      return decode<{ context: PayoutContext }>(doc.snapshot).context;
    },
    advance: (ms) => advance(gateway, ms),
    iso,
  };
}
