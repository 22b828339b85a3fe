/**
 * An embedded node with its gateway on a free loopback port, and small HTTP helpers
 * for tests. Every answer `request` receives is validated against the OpenAPI
 * document the node serves (openapi-validator.ts); a mismatch fails the test.
 */
import { sendAttempt, type AttemptRequest, type AttemptResult } from '../../actors/webhooks/http-sender.js';
import { EmbeddedStore, TestClock, createLogger, loadConfig, type ActorKind, type Config, type Store } from '../../actors/index.js';
import { startNode, type NodeOptions, type PlatformNode } from '../../deploy/node.js';
import { ResponseValidator } from './openapi-validator.js';
import { WALLET_PROVIDER_SECRET } from './wallet-provider.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/** The admin guard's two refusals, as the envelope answers them. */
export const missingToken = { success: false, message: 'Missing admin token', responseObject: null, statusCode: 401 };
export const invalidToken = { success: false, message: 'Invalid admin token', responseObject: null, statusCode: 401 };
/** An unknown path's answer, whatever the method. */
export const notFound = { success: false, message: 'Not found', responseObject: null, statusCode: 404, errorCode: 'NOT_FOUND' };

export const bearer = (token: string = ADMIN_TOKEN) => ({ authorization: `Bearer ${token}` });

export interface TestGateway {
  node: PlatformNode;
  url: string;
  clock: TestClock;
  request(method: string, path: string, options?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse>;
  admin(method: string, path: string, body?: unknown): Promise<ApiResponse>;
  createMerchant(body?: Record<string, unknown>): Promise<{ liveId: string; sandboxId: string; liveKey: string; sandboxKey: string }>;
  stop(): Promise<void>;
}

/** A fresh gateway and one merchant (tier BASE, a wallet on file), stopped once `run` settles. */
export async function withMerchant(
  run: (gateway: TestGateway, merchant: Awaited<ReturnType<TestGateway['createMerchant']>>) => Promise<void>,
  overrides: Partial<Config> = {},
): Promise<void> {
  const gateway = await startTestGateway(overrides);
  try {
    await run(gateway, await gateway.createMerchant());
  } finally {
    await gateway.stop();
  }
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: { success: boolean; message: string; responseObject: any; statusCode: number; errorCode?: string };
}

/**
 * Tests reach loopback only: a webhook URL naming any other host (the fuzzer makes them up)
 * fails its attempt here, before a DNS lookup could leave the machine.
 */
async function loopbackOnly(request: AttemptRequest): Promise<AttemptResult> {
  const host = URL.canParse(request.url) ? new URL(request.url).hostname : '';
  if (host === '127.0.0.1' || host === '[::1]') return sendAttempt(request);
  return { status: null, responseExcerpt: '', durationMs: 0, error: `tests send to loopback only, not ${host}`, errorCode: 'CONNECTION_FAILED' };
}

/** Runs `run` on a fresh test gateway, stopped afterwards however `run` ends. */
export async function withGateway(run: (gateway: TestGateway) => Promise<void>, overrides: Partial<Config> = {}): Promise<void> {
  const gateway = await startTestGateway(overrides);
  try {
    await run(gateway);
  } finally {
    await gateway.stop();
  }
}

/** `store`: share one with an earlier gateway, as a node restarted over the same database would. */
export async function startTestGateway(
  overrides: Partial<Config> = {},
  options: {
    store?: Store;
    kinds?: ActorKind[];
    payoutProviders?: NodeOptions['payoutProviders'];
    cashoutMail?: NodeOptions['cashoutMail'];
    supportDesk?: NodeOptions['supportDesk'];
    dashboardMail?: NodeOptions['dashboardMail'];
    stakeClaims?: NodeOptions['stakeClaims'];
    totalCap?: NodeOptions['totalCap'];
  } = {},
): Promise<TestGateway> {
  const clock = new TestClock(Date.UTC(2026, 10, 23, 12));
  const node = await startNode({
    config: {
      ...loadConfig({}),
      PORT: 0,
      LOG_LEVEL: 'silent',
      PEER_ADMIN_TOKEN: ADMIN_TOKEN,
      INDEXER_ENABLED: false,
      ENCLAVE_ENABLED: false,
      LOCAL_MAKERS: false,
      WALLET_PROVIDER_WEBHOOK_SECRET: [WALLET_PROVIDER_SECRET],
      ...overrides,
    },
    store: options.store ?? new EmbeddedStore(),
    kinds: options.kinds,
    payoutProviders: options.payoutProviders,
    cashoutMail: options.cashoutMail,
    supportDesk: options.supportDesk,
    dashboardMail: options.dashboardMail,
    stakeClaims: options.stakeClaims,
    totalCap: options.totalCap,
    webhookSender: loopbackOnly,
    clock,
    logger: createLogger({ level: 'silent' }),
  });
  // Every answer any test receives is held to the served OpenAPI document.
  let validator: Promise<ResponseValidator> | undefined;
  const request: TestGateway['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers['x-api-key'] = options.key;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(node.url + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    }).catch((error: unknown) => {
      // undici says only "fetch failed"; what failed is in its cause.
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`${method} ${path}: fetch failed: ${cause?.code ?? ''} ${cause?.message ?? String(error)}`, { cause: error });
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const body = text && contentType?.startsWith('application/json') ? JSON.parse(text) : text || null;
    validator ??= ResponseValidator.fetch(node.url);
    (await validator).assert({ method, target: path, status: response.status, contentType, body });
    return { status: response.status, headers: response.headers, body };
  };
  const admin: TestGateway['admin'] = (method, path, body) => request(method, path, { body, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return {
    node,
    url: node.url,
    clock,
    request,
    admin,
    async createMerchant(body = { name: 'Acme', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' }) {
      const created = await admin('POST', '/internal/v1/merchants', body);
      if (created.status !== 201) throw new Error(`merchant creation failed: ${JSON.stringify(created.body)}`);
      const { merchant, sandboxMerchant, liveApiKey, sandboxApiKey } = created.body.responseObject;
      return { liveId: merchant.id, sandboxId: sandboxMerchant.id, liveKey: liveApiKey, sandboxKey: sandboxApiKey };
    },
    stop: () => node.stop(),
  };
}
