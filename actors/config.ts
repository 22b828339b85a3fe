/**
 * The node's configuration: environment variables, validated once at start. The
 * defaults run everything embedded in one process. A bad value stops the start with
 * a message naming the variable.
 */
import { hostname } from 'node:os';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { parseRate, parseUsdc } from '../machines/money.js';

import { catalogTokenKey } from '../machines/payout/payout-settings.js';
import { isPayoutRail, normaliseRails, PAYOUT_RAILS, type PayoutRail } from '../machines/payout/payout-rails.js';
import { privateKeysProblem } from './relayer/relayer-keys.js';
import { secretsProblem } from './wallet-transfers/provider-secrets.js';
import { commaList } from './comma-list.js';
import type { RetryPolicy } from './runtime/retry-policy.js';
import type { MongoDurability } from './store/mongo-store.js';
import { PlatformError } from './errors/platform-error.js';

const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const hostPort = z.string().regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address');
const bps = z.number().int().min(0).max(10_000);
/** The attestation service's penalty policy (enclave/verification/penalty-policy.ts), rates as exact decimals. */
const penaltyPolicyJson = z
  .object({
    crossCurrencyBps: bps.default(0),
    purchaseProtectionBps: bps.default(0),
    fxRates: z
      .record(
        z.string().regex(/^[A-Z]{3}\/[A-Z]{3}$/),
        z
          .string()
          .regex(/^\d{1,6}(\.\d{1,6})?$/)
          .transform((rate) => parseRate(rate))
          .refine((rate) => rate > 0n, 'must be above zero'),
      )
      .default({}),
  })
  .strict();

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: integer(0, 65535).default(3000),
    /** Port of a separate, unauthenticated metrics server (GET /metrics) for a private scrape network; unset, metrics are only on the gateway behind PEER_ADMIN_TOKEN. */
    METRICS_PORT: integer(0, 65535).optional(),
    /** Where the METRICS_PORT server listens; loopback by default, so opening it to a network is a choice. */
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    NODE_ID: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only, at most 64')
      .default(
        `${hostname()
          .replace(/[^A-Za-z0-9_-]/g, '-')
          .slice(0, 40)}-${process.pid}`,
      ),
    MONGODB_URI: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
      .optional(),
    MONGODB_DB: z.string().min(1).optional(),
    /**
     * A LOCAL STAND-IN FOR MONGODB: `tcp://127.0.0.1:<port>` of an in-memory store served over a loopback
     * socket (actors/store/socket/, `npm run cluster` starts one), so several local nodes share one store.
     * It keeps nothing once its process ends, has no replication and is refused in production.
     */
    STANDIN_STORE_URL: z
      .string()
      .regex(/^tcp:\/\/(127\.0\.0\.1|localhost):\d{1,5}$/, 'must be tcp://127.0.0.1:<port>: the stand-in store is served on loopback only')
      .optional(),
    /** Acknowledgement a write waits for: `majority` (default) or a number of members; journaled unless MONGODB_JOURNAL=false. */
    MONGODB_WRITE_CONCERN: z
      .string()
      .regex(/^(majority|[1-9]\d?)$/, 'must be majority or a number of members, such as 1')
      .default('majority')
      .transform((value) => (value === 'majority' ? value : Number(value))),
    MONGODB_JOURNAL: z
      .enum(['true', 'false'], 'must be true or false')
      .default('true')
      .transform((value) => value === 'true'),
    /** What reads see: `majority` (default) never returns a write a failover could roll back. */
    MONGODB_READ_CONCERN: z.enum(['majority', 'local', 'linearizable']).default('majority'),
    /** The folder the embedded store (no MONGODB_URI) keeps its data in; created at start, one process at a time. */
    DATA_DIR: z.string().min(1).default('./data'),
    /** The cluster's NATS servers: one URL, or several separated by commas (every server of the cluster, so any may restart). */
    NATS_URL: z
      .string()
      .regex(/^(nats|tls):\/\/[^\s,]+(,(nats|tls):\/\/[^\s,]+)*$/, 'must be a nats:// or tls:// URL, or several separated by commas')
      .optional(),
    /** Copies a NATS cluster keeps of the event stream and the lease buckets: 1 on one server, 3 on a cluster of three (one may then restart). */
    NATS_REPLICAS: integer(1, 5).default(1),
    NATS_NAMESPACE: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'lower-case letters, digits, _ and -, starting with a letter')
      .default('peer'),
    SHARD_COUNT: integer(1, 4096).default(64),
    LEASE_TTL_MS: integer(1000, 300_000).default(10_000),
    ASK_TIMEOUT_MS: integer(100, 300_000).default(10_000),
    ATTEMPT_TIMEOUT_MS: integer(50, 300_000).default(2_000),
    ACTOR_CACHE_SIZE: integer(1, 10_000_000).default(10_000),
    TIMER_POLL_MS: integer(10, 60_000).default(1_000),
    /** How often each node looks for due effects on its shards, in memory or not. */
    SWEEP_INTERVAL_MS: integer(10, 60_000).default(1_000),
    /** How long applied message ids and their replies are remembered: a retry within it is answered, not applied. */
    MESSAGE_RETENTION_MS: integer(60_000, 30 * 24 * 60 * 60 * 1000).default(24 * 60 * 60 * 1000),
    /** How many days the record of each turn (the inspector's history and time travel) is kept. */
    HISTORY_RETENTION_DAYS: integer(1, 3650).default(90),
    /** Retry policy of effects, timers, bus and chain-fact deliveries before they become dead letters. */
    RETRY_BASE_MS: integer(1, 60_000).default(100),
    RETRY_MAX_BACKOFF_MS: integer(10, 24 * 60 * 60 * 1000).default(60_000),
    RETRY_MAX_ATTEMPTS: integer(1, 1000).default(10),
    RETRY_MAX_AGE_MS: integer(1000, 30 * 24 * 60 * 60 * 1000).default(24 * 60 * 60 * 1000),
    DRAIN_TIMEOUT_MS: integer(100, 120_000).default(8_000),
    /**
     * How long a stopping node keeps serving once its readiness probe answers 503, before it stops
     * listening: long enough for the load balancer to notice (its check interval times the failures it
     * waits for, plus a margin). 0 where no balancer probes the node. Counted inside DRAIN_TIMEOUT_MS.
     */
    ROTATION_LEAVE_MS: integer(0, 60_000).default(0),
    /** Bearer token of the admin API under /internal/v1; without it the admin API is off. */
    PEER_ADMIN_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
    /** Comma-separated CIDRs of proxies whose X-Forwarded-For is believed; empty means the socket address is the client. */
    TRUSTED_PROXIES: z
      .string()
      .transform(commaList)
      .superRefine((entries, ctx) => {
        // As strict as gateway/auth/cidr.ts: ipaddr.js alone reads `010.0.0.1` as octal.
        const bad = entries.filter((entry) => {
          const cidr = entry.includes('/') ? entry : `${entry}/${entry.includes(':') ? 128 : 32}`;
          return !ipaddr.IPv4.isValidCIDRFourPartDecimal(cidr) && !(ipaddr.IPv6.isValidCIDR(cidr) && !cidr.includes('%'));
        });
        if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `not an IPv4 or IPv6 CIDR or address: ${bad.join(', ')}` });
      })
      .default([]),
    RATE_LIMIT_PER_MINUTE: integer(1, 1_000_000).default(1200),
    BODY_LIMIT_BYTES: integer(1024, 10 * 1024 * 1024).default(100 * 1024),
    /** The largest order the API takes, in USDC (a decimal such as 100000); a fiat price counts at its converted value. */
    ORDER_MAX_USDC: z
      .string()
      .transform((text, ctx) => {
        const units = usdcOrUndefined(text);
        if (units !== undefined && units > 0n) return units;
        ctx.addIssue({ code: 'custom', message: 'must be a positive USDC amount with at most 6 decimals, such as 100000' });
        return z.NEVER;
      })
      .default(100_000_000_000n),
    /** The conversion provider: GET returns { base: "USD", rates: { EUR: "0.92", … } }; unset, a fixed local table (not for production). */
    RATES_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Sent to RATES_URL as a bearer token. */
    RATES_API_KEY: z.string().min(1).optional(),
    RATES_TIMEOUT_MS: integer(100, 60_000).default(2_000),
    /** How old the provider's last answer may be before orders priced in fiat are refused RATE_UNAVAILABLE. */
    RATES_MAX_AGE_MS: integer(1_000, 24 * 60 * 60 * 1000).default(60_000),
    /** How long the orderbook answers from one snapshot of the deposits; document 3 allows at most 60 seconds. */
    ORDERBOOK_CACHE_MS: integer(0, 60_000).default(15_000),
    /** Below this much available USDC (a decimal) an orderbook row is dust, shown only with showSmallOrders=true. */
    ORDERBOOK_DUST_USDC: z
      .string()
      .transform((text, ctx) => {
        const units = usdcOrUndefined(text);
        if (units !== undefined) return units;
        ctx.addIssue({ code: 'custom', message: 'must be a USDC amount with at most 6 decimals, such as 1' });
        return z.NEVER;
      })
      .default(1_000_000n),
    /** A spread beyond this many basis points from the reference rate, either way, is extreme: hidden unless hideExtremeSpread=false, and never quoted to a checkout. */
    ORDERBOOK_EXTREME_SPREAD_BPS: integer(0, 1_000_000).default(2_000),
    /** The origin makers sign in at (EIP-4361 domain and URI), such as https://app.example.com; unset, the URL the gateway listens on (set it behind a proxy). */
    MAKER_AUTH_ORIGIN: z
      .url({ protocol: /^https?$/ })
      .transform((text) => new URL(text).origin)
      .optional(),
    /** The merchant dashboard's origin, its passkeys' relying party (docs/dashboard-auth.md); unset, the node's address (127.0.0.1 read as localhost). Set it behind a proxy. */
    DASHBOARD_ORIGIN: z
      .url({ protocol: /^https?$/ })
      .transform((text) => new URL(text).origin)
      .optional(),
    /** How long a sign-in nonce may wait for its signed message. */
    MAKER_NONCE_TTL_MS: integer(10_000, 60 * 60 * 1000).default(10 * 60 * 1000),
    /** How long a maker's bearer token lasts (never beyond the signed message's Expiration Time). */
    MAKER_TOKEN_TTL_MS: integer(60_000, 30 * 24 * 60 * 60 * 1000).default(24 * 60 * 60 * 1000),
    /** Transaction-history reads per minute per wallet (per node). */
    TRANSACTION_HISTORY_PER_MINUTE: integer(1, 100_000).default(30),
    /** Secret that makes order ids derived from idempotency keys unguessable; random per process when unset. */
    ID_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Whether the node reads chain facts at all; `false` runs it without a chain (tests that need none). */
    INDEXER_ENABLED: z
      .enum(['true', 'false'], 'must be true or false')
      .default('true')
      .transform((value) => value === 'true'),
    /** host:port of a shared indexer; unset, the all-in-one node runs one in-process. */
    INDEXER_URL: hostPort.optional(),
    /** Where `npm run indexer` listens. */
    INDEXER_GRPC_ADDR: hostPort.default('127.0.0.1:50051'),
    /** The chain to index; unset, a local anvil with our contracts is started. */
    CHAIN_RPC_URL: z
      .string()
      .regex(/^(https?|wss?):\/\/[^\s]+$/, 'must be an http(s):// or ws(s):// URL')
      .optional(),
    CHAIN_USDC_ADDRESS: address.optional(),
    CHAIN_ESCROW_ADDRESS: address.optional(),
    CHAIN_ORCHESTRATOR_ADDRESS: address.optional(),
    /** The batch executor makers' embedded wallets delegate to (EIP-7702); with CHAIN_DEPOSIT_ASSERTIONS_ADDRESS, atomic deposit creation on CHAIN_RPC_URL. */
    CHAIN_BATCH_EXECUTOR_ADDRESS: address.optional(),
    CHAIN_DEPOSIT_ASSERTIONS_ADDRESS: address.optional(),
    /** How long a signed atomic-create batch stays valid on chain; one stuck longer reverts and is submitted again. */
    ATOMIC_CREATE_BATCH_TTL_SECONDS: integer(60, 24 * 60 * 60).default(3_600),
    /** How long POST /v2/deposits/atomic-create waits for its batch to be sent before answering 503 (the request goes on; repeating it is safe). */
    ATOMIC_CREATE_WAIT_MS: integer(100, 60_000).default(10_000),
    INDEXER_START_BLOCK: integer(0, Number.MAX_SAFE_INTEGER).default(0),
    INDEXER_CONFIRMATIONS: integer(0, 10_000).default(0),
    /**
     * Which blocks' facts are taken: `confirmations` (INDEXER_CONFIRMATIONS under the head),
     * or the chain's own `safe` or `finalized` block where its RPC serves those tags.
     */
    INDEXER_FINALITY: z.enum(['confirmations', 'safe', 'finalized'], 'must be confirmations, safe or finalized').default('confirmations'),
    INDEXER_POLL_MS: integer(10, 60_000).default(250),
    INDEXER_BATCH_BLOCKS: integer(1, 100_000).default(500),
    INDEXER_REORG_DEPTH: integer(1, 100_000).default(128),
    /** Confirmed blocks the fact log may trail the chain by before the indexer reports NOT_SERVING and nodes report degraded. */
    INDEXER_MAX_LAG_BLOCKS: integer(1, 1_000_000).default(60),
    /**
     * The keys the relayer sends the node's transactions with: 0x-prefixed 32-byte hex,
     * comma-separated. Unset on the local chain, an anvil dev account sends; unset on
     * CHAIN_RPC_URL, the node sends nothing. Never logged.
     */
    RELAYER_PRIVATE_KEYS: z
      .string()
      .superRefine((text, ctx) => {
        const problem = privateKeysProblem(text);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    /** Blocks a transaction's receipt needs (itself included) before its owner hears the outcome. */
    RELAYER_CONFIRMATIONS: integer(1, 1_000).default(1),
    /** How often a sent transaction is looked for on chain and sent again. */
    RELAYER_CHECK_MS: integer(10, 600_000).default(2_000),
    /** How long an attempt may go unmined before a replacement pays more. */
    RELAYER_BUMP_AFTER_MS: integer(1_000, 24 * 60 * 60 * 1000).default(60_000),
    /** How long a transaction may wait for the chain to price it before it fails unsent and its owner hears so. */
    RELAYER_UNSENT_FAIL_MS: integer(1_000, 24 * 60 * 60 * 1000).default(120_000),
    /** The most the relayer pays per gas, in wei (default 200 gwei): a bump never goes past it. */
    RELAYER_MAX_FEE_PER_GAS: z
      .string()
      .regex(/^[1-9]\d{0,30}$/, 'must be a whole number of wei, such as 200000000000')
      .default('200000000000')
      .transform((text) => BigInt(text)),
    /**
     * The gating service's key: it approves each intent the node signals (0x-prefixed
     * 32-byte hex). Unset on the local chain, its anvil dev account signs; unset on
     * CHAIN_RPC_URL, the node takes no live payments. Never logged.
     */
    GATING_PRIVATE_KEY: z
      .string()
      .superRefine((text, ctx) => {
        const problem = privateKeysProblem(text);
        if (problem || text.includes(',')) ctx.addIssue({ code: 'custom', message: problem ?? 'must be one key' });
      })
      .optional(),
    /** The platform's fee on every payment, in basis points of what the intent releases; taken on chain as the intent's referrer fee. */
    PLATFORM_FEE_BPS: integer(0, 500).default(50),
    /** Where the platform's fee goes. On the local chain, anvil dev account 8; unset on CHAIN_RPC_URL, no platform fee is taken (the node says so at start). */
    PLATFORM_FEE_RECIPIENT: address.optional(),
    /** On the local chain only: whether the node seeds a few makers' deposits at start, so checkout has liquidity out of the box. */
    LOCAL_MAKERS: z
      .enum(['true', 'false'], 'must be true or false')
      .default('true')
      .transform((value) => value === 'true'),
    /**
     * The local wallet provider's embedded wallets (anvil's public mnemonic from index 10) on a chain
     * of CHAIN_RPC_URL, for a dev chain; the local chain always has them. Refused in production.
     */
    LOCAL_EMBEDDED_WALLETS: z
      .enum(['true', 'false'], 'must be true or false')
      .default('false')
      .transform((value) => value === 'true'),
    /** How long a customer has to pay a fiat-rail attempt (document 1: one hour). */
    PAYMENT_WINDOW_MS: integer(60_000, 24 * 60 * 60 * 1000).default(60 * 60 * 1000),
    /**
     * The conversion provider crypto rails are paid through, in the wire form of docs/payments.md. Unset, a node on
     * the local chain runs the local simulator; elsewhere it takes no live crypto payment.
     */
    CONVERSION_PROVIDER_URL: z.url({ protocol: /^https?$/ }).optional(),
    CONVERSION_TIMEOUT_MS: integer(100, 60_000).default(5_000),
    /** Payout methods switched off for every merchant (document 2's PayoutRail names, comma-separated): no new payout offers them. */
    PAYOUT_RAILS_OFF: z
      .string()
      .transform((text, ctx) => {
        const names = commaList(text);
        const unknown = names.filter((name) => !isPayoutRail(name));
        if (unknown.length === 0) return normaliseRails([...new Set(names as PayoutRail[])]);
        ctx.addIssue({ code: 'custom', message: `not a payout rail: ${unknown.join(', ')} (the rails are ${PAYOUT_RAILS.join(', ')})` });
        return z.NEVER;
      })
      .default([]),
    /** Document 1's remediation actions (recreate, extend, fulfill-sar) for every merchant; off, they answer 503 FEATURE_DISABLED. */
    REMEDIATION_ACTIONS_ENABLED: z
      .enum(['true', 'false'], 'must be true or false')
      .default('true')
      .transform((value) => value === 'true'),
    /** Extensions alone, for every merchant (document 1: "extensions independently"). */
    REMEDIATION_EXTENSIONS_ENABLED: z
      .enum(['true', 'false'], 'must be true or false')
      .default('true')
      .transform((value) => value === 'true'),
    /** Rails whose automated release (fulfill-sar) is switched off, comma-separated (venmo, cashapp, wise). */
    SELLER_RELEASE_RAILS_OFF: z.string().transform(commaList).default([]),
    /** How long the support side may take to put an action that waits for approval before staff; past it, 502 SUPPORT_UNAVAILABLE. */
    SUPPORT_TIMEOUT_MS: integer(100, 30_000).default(3_000),
    /** Funding tokens switched off for every merchant, comma-separated as <chainId>:<tokenAddress> from the funding catalog; kept as fundingTokenKey's keys. */
    PAYOUT_FUNDING_TOKENS_OFF: z
      .string()
      .transform((text, ctx) => {
        const keys = new Set<string>();
        const unknown: string[] = [];
        for (const entry of commaList(text)) {
          const [chainId, tokenAddress, ...rest] = entry.split(':');
          const key = /^\d+$/.test(chainId!) && tokenAddress && rest.length === 0 ? catalogTokenKey(Number(chainId), tokenAddress) : null;
          if (key) keys.add(key);
          else unknown.push(entry);
        }
        if (unknown.length === 0) return [...keys];
        ctx.addIssue({ code: 'custom', message: `not a funding token of the catalog, as <chainId>:<tokenAddress>: ${unknown.join(', ')}` });
        return z.NEVER;
      })
      .default([]),
    /**
     * Where the service's payout fee is delivered, an EVM address on Base. Unset on the local chain, a local
     * dev wallet (deploy/payout-service-fee.ts); required in production unless every payout rail is off.
     */
    PAYOUT_SERVICE_FEE_WALLET: address.optional(),
    /** How long after creation a payout may be funded; each on-time arrival moves the deadline to at least this long after it (document 2: 24 hours). */
    PAYOUT_FUNDING_DEADLINE_MS: integer(60_000, 30 * 24 * 60 * 60 * 1000).default(24 * 60 * 60 * 1000),
    /** How often an unfunded payout's deposit address is checked with the conversion provider, beside the provider's own reports. */
    PAYOUT_FUNDING_POLL_MS: integer(1_000, 60 * 60 * 1000).default(30_000),
    /** Sent to CONVERSION_PROVIDER_URL in the x-api-key header when set; never to the local simulator. Never logged. */
    CONVERSION_PROVIDER_KEY: z.string().min(1).optional(),
    /**
     * Lets webhook endpoints point at loopback, private, link-local and metadata addresses, for development
     * and tests against a receiver on this machine. Refused in production.
     */
    WEBHOOK_ALLOW_PRIVATE: z
      .enum(['true', 'false'], 'must be true or false')
      .default('false')
      .transform((value) => value === 'true'),
    /** How long one webhook attempt may take, connection to last byte of the excerpt read. */
    WEBHOOK_TIMEOUT_MS: integer(1_000, 30_000).default(10_000),
    /**
     * The SMTP server the node sends its mail through (a payout customer's sign-in code): smtp://user:password@host:587
     * (STARTTLS) or smtps://user:password@host:465. Unset outside production, the node catches its mail on loopback
     * and a development node shows it at GET /dev/mail; required in production while any payout rail is on. Never logged.
     */
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, hostname: /./, error: 'must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465' })
      .optional(),
    /** The From of the mail the node sends: an address, alone or after a display name (quoted if it holds a comma or such). */
    MAIL_FROM: z
      .string()
      .trim()
      .regex(
        /^(?:(?:"[^"\\\r\n]*"|[^"<>,;:@\r\n]+)\s*<[^\s@<>",;]+@[^\s@<>",;]+>|[^\s@<>",;]+@[^\s@<>",;]+)$/,
        'must be an address, with a display name if wanted, such as Peer payouts <payouts@example.com>',
      )
      .default('Peer payouts <payouts@localhost.invalid>'),
    /**
     * The wallet provider's webhook signing secret (whsec_…), or two comma-separated while a rotation
     * overlaps; unset, POST /v2/webhooks/walletprovider answers 503 WEBHOOK_NOT_CONFIGURED. Never logged.
     */
    WALLET_PROVIDER_WEBHOOK_SECRET: z
      .string()
      .superRefine((text, ctx) => {
        const problem = secretsProblem(text);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .transform(commaList)
      .optional(),
    /** Whether the all-in-one node runs the attestation service in-process (on free loopback ports). */
    ENCLAVE_ENABLED: z
      .enum(['true', 'false'], 'must be true or false')
      .default('true')
      .transform((value) => value === 'true'),
    /** host:port of the attestation service's gRPC; unset, the all-in-one node reaches the one it runs in-process. */
    ENCLAVE_URL: hostPort.optional(),
    /** With ENCLAVE_URL: the attestation service's HTTP address as customers' browsers reach it (document 1's attestation.serviceUrl). */
    ENCLAVE_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * With ENCLAVE_URL: the published measurement of the service's code: sha256:<hex> for the
     * software enclave, pcr0:<hex> (its image's PCR0) for one on Nitro, which also needs ENCLAVE_NITRO_ROOT.
     */
    ENCLAVE_MEASUREMENT: z
      .string()
      .regex(/^(sha256:[0-9a-f]{64}|pcr0:[0-9a-f]{96})$/, 'must be sha256: and 64 hex digits, or pcr0: and 96')
      .optional(),
    /** With a pcr0: measurement: the PEM file of AWS's Nitro Enclaves root certificate, which every document must chain to. */
    ENCLAVE_NITRO_ROOT: z.string().min(1).optional(),
    /** With ENCLAVE_URL: comma-separated signer addresses the chain registers as witnesses. */
    ENCLAVE_TRUSTED_SIGNERS: z.string().transform(commaList).pipe(z.array(address)).default([]),
    /** Where `npm run enclave` serves gRPC and HTTP ({attestation_url}). */
    ENCLAVE_GRPC_ADDR: hostPort.default('127.0.0.1:50052'),
    ENCLAVE_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
    ENCLAVE_HTTP_PORT: integer(0, 65_535).default(8081),
    /** `simulator`: the local platform stand-ins and their DKIM keys; `live`: the platforms' own hosts and DNS. */
    ENCLAVE_PLATFORMS: z.enum(['simulator', 'live']).default('simulator'),
    /** Base64 of the 32-byte key that wraps the signing key; unset, a key lives only as long as the process. */
    ENCLAVE_KEY_WRAPPING_KEY: z
      .string()
      .refine((value) => Buffer.from(value, 'base64').length === 32, 'must be base64 of 32 bytes')
      .optional(),
    /** The signing key as the key-wrapping key wrapped it (compact JWE); unset, a new key is made and its wrapped form logged. */
    ENCLAVE_WRAPPED_KEY: z
      .string()
      .regex(/^[\w-]+(\.[\w-]*){4}$/, 'must be a compact JWE')
      .optional(),
    /** The verifiers attestations are signed for, by chain id: {"8453":{"paymentVerifier":"0x…","disputeVerifier":"0x…"}}. */
    ENCLAVE_CHAINS: z
      .string()
      .transform((text, ctx) => {
        const chains = z
          .record(z.string().regex(/^\d+$/), z.object({ paymentVerifier: address, disputeVerifier: address.optional() }).strict())
          .safeParse(safeJson(text));
        if (chains.success) return chains.data;
        ctx.addIssue({ code: 'custom', message: 'must be JSON: {"<chainId>": {"paymentVerifier": "0x…", "disputeVerifier": "0x…"}}' });
        return z.NEVER;
      })
      .optional(),
    /**
     * Per platform, how far before an intent's signal or after its expiry its payment may be dated,
     * in ms (clock skew between the platform and the chain): {"zelle-citi": 300000}. A minute where unset.
     */
    /**
     * The attestation service's penalty rates, in basis points, and the exchange rates it converts a
     * payment made in another currency at (TO units per FROM unit):
     * {"crossCurrencyBps": 150, "purchaseProtectionBps": 100, "fxRates": {"USD/EUR": "0.92"}}. None where unset.
     */
    ENCLAVE_PENALTIES: z
      .string()
      .transform((text, ctx) => {
        const policy = penaltyPolicyJson.safeParse(safeJson(text));
        if (policy.success) return policy.data;
        ctx.addIssue({
          code: 'custom',
          message: 'must be JSON: {"crossCurrencyBps": 0-10000, "purchaseProtectionBps": 0-10000, "fxRates": {"USD/EUR": "0.92"}}',
        });
        return z.NEVER;
      })
      .optional(),
    ENCLAVE_TIMESTAMP_BUFFERS: z
      .string()
      .transform((text, ctx) => {
        const buffers = z.record(z.string().regex(/^[a-z][a-z-]*$/), z.number().int().min(0).max(3_600_000)).safeParse(safeJson(text));
        if (buffers.success) return buffers.data;
        ctx.addIssue({ code: 'custom', message: 'must be JSON: {"<platform>": <milliseconds, at most 3600000>}' });
        return z.NEVER;
      })
      .optional(),
    /** Comma-separated addresses trusted to vouch for buyer-generated provider proofs (POST /verify/…). */
    ENCLAVE_PROOF_ATTESTORS: z.string().transform(commaList).pipe(z.array(address)).default([]),
  })
  .superRefine((env, ctx) => {
    if (env.ROTATION_LEAVE_MS >= env.DRAIN_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['ROTATION_LEAVE_MS'],
        message: 'must be below DRAIN_TIMEOUT_MS: the drain that follows leaving the rotation needs time of its own',
      });
    }
    if (env.CHAIN_RPC_URL) {
      for (const name of ['CHAIN_USDC_ADDRESS', 'CHAIN_ESCROW_ADDRESS', 'CHAIN_ORCHESTRATOR_ADDRESS'] as const) {
        if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required with CHAIN_RPC_URL: the contracts to index on that chain' });
      }
    }
    if (env.NATS_URL && env.INDEXER_ENABLED && !env.INDEXER_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['INDEXER_URL'],
        message: 'is required in a cluster (or INDEXER_ENABLED=false): the nodes share one indexer, as its fact log has one writer',
      });
    }
    if (env.ENCLAVE_URL && !env.ENCLAVE_PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['ENCLAVE_PUBLIC_URL'],
        message: 'is required with ENCLAVE_URL: customers’ browsers seal their session material to the service it names',
      });
    }
    if (env.ENCLAVE_URL && (!env.ENCLAVE_MEASUREMENT || env.ENCLAVE_TRUSTED_SIGNERS.length === 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ENCLAVE_URL'],
        message: 'needs ENCLAVE_MEASUREMENT and ENCLAVE_TRUSTED_SIGNERS: the node trusts the service only once its attestation document shows both',
      });
    }
    if (env.ENCLAVE_MEASUREMENT?.startsWith('pcr0:') && !env.ENCLAVE_NITRO_ROOT) {
      ctx.addIssue({
        code: 'custom',
        path: ['ENCLAVE_NITRO_ROOT'],
        message: 'needs to name the root certificate: a pcr0: measurement is only as good as the hardware document that shows it',
      });
    }
    if (env.ENCLAVE_WRAPPED_KEY && !env.ENCLAVE_KEY_WRAPPING_KEY) {
      ctx.addIssue({ code: 'custom', path: ['ENCLAVE_WRAPPED_KEY'], message: 'needs ENCLAVE_KEY_WRAPPING_KEY: only that key can unwrap it' });
    }
    if (env.NODE_ENV === 'production' && env.CHAIN_RPC_URL && env.INDEXER_FINALITY === 'confirmations' && env.INDEXER_CONFIRMATIONS === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['INDEXER_CONFIRMATIONS'],
        message:
          'must be above 0 in production on the chain of CHAIN_RPC_URL (or set INDEXER_FINALITY to safe or finalized): a fact taken at the head can leave the chain',
      });
    }
    if (env.NODE_ENV === 'production' && env.LOCAL_EMBEDDED_WALLETS) {
      ctx.addIssue({ code: 'custom', path: ['LOCAL_EMBEDDED_WALLETS'], message: 'is refused in production: their keys are public' });
    }
    if (env.NODE_ENV === 'production' && env.ENCLAVE_ENABLED && env.ENCLAVE_PLATFORMS === 'simulator') {
      ctx.addIssue({ code: 'custom', path: ['ENCLAVE_PLATFORMS'], message: 'must be live in production: simulated platforms prove no payment' });
    }
    if (env.NATS_URL && !env.ID_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['ID_SECRET'],
        message: 'is required in a cluster: every node must derive the same order id from an idempotency key',
      });
    }
    if (env.NATS_URL && !env.MONGODB_URI && !env.STANDIN_STORE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['NATS_URL'],
        message: 'is set but MONGODB_URI is not: a cluster node needs a store every node reaches, and the embedded store lives inside one process',
      });
    }
    if (env.STANDIN_STORE_URL && env.MONGODB_URI) {
      ctx.addIssue({ code: 'custom', path: ['STANDIN_STORE_URL'], message: 'is set beside MONGODB_URI: a node keeps its data in one store' });
    }
    if (env.NODE_ENV === 'production' && env.STANDIN_STORE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['STANDIN_STORE_URL'],
        message: 'is refused in production: the stand-in for MongoDB keeps its data in one process’s memory, unreplicated',
      });
    }
  });

export type Config = z.infer<typeof schema>;

/** Which process reads the configuration: production asks each only for what it uses. */
export type ProcessRole = 'node' | 'indexer' | 'enclave';

type Issues = z.core.$RefinementCtx<Config>;

/** What production refuses of a platform node alone: the indexer and the attestation service mail, quote and serve makers nothing. */
function nodeRefusals(env: Config, ctx: Issues): void {
  if (env.NODE_ENV === 'production' && !env.RATES_URL) {
    ctx.addIssue({ code: 'custom', path: ['RATES_URL'], message: 'is required in production: the local table is fixed rates, not the market' });
  }
  if (env.NODE_ENV === 'production' && !env.MAKER_AUTH_ORIGIN?.startsWith('https://')) {
    ctx.addIssue({
      code: 'custom',
      path: ['MAKER_AUTH_ORIGIN'],
      message:
        'must be set, to an https origin, in production: makers sign the origin their wallet shows them, which behind a proxy is not the address the node listens on',
    });
  }
  if (env.NODE_ENV === 'production' && env.WEBHOOK_ALLOW_PRIVATE) {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOW_PRIVATE'],
      message: 'must be false in production: a merchant could aim deliveries at the network the node runs in',
    });
  }
  if (env.NODE_ENV === 'production' && !env.SMTP_URL && env.PAYOUT_RAILS_OFF.length < PAYOUT_RAILS.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['SMTP_URL'],
      message:
        'is required in production while any payout rail is on (PAYOUT_RAILS_OFF): a payout customer signs in with a code mailed to the payout’s e-mail, and without it the node mails nothing',
    });
  }
  if (env.NODE_ENV === 'production' && !env.PAYOUT_SERVICE_FEE_WALLET && env.PAYOUT_RAILS_OFF.length < PAYOUT_RAILS.length) {
    ctx.addIssue({
      code: 'custom',
      path: ['PAYOUT_SERVICE_FEE_WALLET'],
      message: 'is required in production while any payout rail is on (PAYOUT_RAILS_OFF): every payout delivers the service fee there',
    });
  }
  if (env.NODE_ENV === 'production' && env.INDEXER_ENABLED && !env.CHAIN_RPC_URL && !env.INDEXER_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['CHAIN_RPC_URL'],
      message: 'is required in production unless INDEXER_URL names the shared indexer: without either the node would start a local anvil chain',
    });
  }
}

/** What production refuses of the indexer on its own. */
function indexerRefusals(env: Config, ctx: Issues): void {
  if (env.NODE_ENV === 'production' && !env.CHAIN_RPC_URL) {
    ctx.addIssue({ code: 'custom', path: ['CHAIN_RPC_URL'], message: 'is required in production: without it the indexer would start a local anvil chain' });
  }
}

const schemas: Record<ProcessRole, typeof schema> = {
  node: schema.superRefine(nodeRefusals),
  indexer: schema.superRefine(indexerRefusals),
  enclave: schema,
};

/** How durable the configuration asks MongoDB writes and reads to be. */
export function durabilityOf(config: Config): MongoDurability {
  return { writeConcern: config.MONGODB_WRITE_CONCERN, journal: config.MONGODB_JOURNAL, readConcern: config.MONGODB_READ_CONCERN };
}

/** The retry policy the configuration sets for failing work. */
export function retryPolicyOf(config: Config): RetryPolicy {
  return { baseMs: config.RETRY_BASE_MS, maxBackoffMs: config.RETRY_MAX_BACKOFF_MS, maxAttempts: config.RETRY_MAX_ATTEMPTS, maxAgeMs: config.RETRY_MAX_AGE_MS };
}

function usdcOrUndefined(text: string): bigint | undefined {
  try {
    return parseUsdc(text);
  } catch {
    return undefined;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class ConfigError extends PlatformError {
  override readonly name = 'ConfigError';
  readonly code = 'CONFIG_INVALID';
}

export function loadConfig(env: Record<string, string | undefined> = process.env, role: ProcessRole = 'node'): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = schemas[role].safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
}
