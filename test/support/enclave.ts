/**
 * An attestation service for tests: the node's own attestation side (platform simulator,
 * DKIM mailer, used payment ids in an embedded store) with every log line captured, on
 * free loopback ports; plus the fixtures that make a payment on each platform and the
 * intent it pays.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { getAddress, keccak256, toBytes, verifyTypedData, type Address, type Hex } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { EmbeddedStore, loadConfig, type Store } from '../../actors/index.js';
import { startEnclaveSide } from '../../deploy/enclave.js';
import type { IntentSnapshot } from '../../proto/gen/peer/enclave/v1/enclave.js';
import {
  type AttestationService,
  ChainRegistry,
  sealSessionMaterial,
  type AttestationProducer,
  type RunningEnclave,
  type SessionUse,
} from '../../enclave/index.js';
import type { DisputeMailer, PlatformSimulator, SimAccount, SimPayment } from '../../enclave/simulator/index.js';
import { PAYMENT_ATTESTATION_TYPES } from '../../enclave/attestation/payment-attestation.js';

export const TEST_CHAIN_ID = 8453;
export const PAYMENT_VERIFIER = getAddress('0x16b3e4a3cf0c6fd23e2ab3ae8c4af1d9b8c6e5a1');
export const DISPUTE_VERIFIER = getAddress('0x2a7c1d5e9f3b8a6c4e2d0f1b3a5c7e9d8b6a4c2e');
/** Trusted to vouch for buyer-generated provider proofs. */
export const proofAttestor = privateKeyToAccount(generatePrivateKey());

/** The service's clock in tests: fixed, so identity and DKIM times are known. */
export const TEST_NOW = Date.parse('2026-11-23T12:00:00Z');

export interface TestEnclave {
  service: AttestationService;
  server: RunningEnclave;
  simulator: PlatformSimulator;
  mailer: DisputeMailer;
  chains: ChainRegistry;
  /** Every log line written so far, as text. */
  logs: string[];
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  get(path: string): Promise<{ status: number; body: any }>;
  /** Seals `material` for `use`, good for ten minutes of the service's clock unless `expiresAt` (Unix seconds) says otherwise. */
  seal(material: Record<string, unknown>, use: SessionUse, expiresAt?: number): Promise<string>;
  stop(): Promise<void>;
}

/** The node's own attestation side (deploy/enclave.ts) with the simulator, a fresh embedded store and every log line captured. */
/** `store`: a durable one, for a test that restarts the service over the claims it made. */
export async function startTestEnclave(
  options: { chains?: ChainRegistry; store?: Store; timestampBuffers?: Record<string, number>; producer?: AttestationProducer; now?: () => number } = {},
): Promise<TestEnclave> {
  const logs: string[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _encoding, callback) {
        logs.push(String(chunk));
        callback();
      },
    }),
  );
  const chains = options.chains ?? new ChainRegistry({ [TEST_CHAIN_ID]: { paymentVerifier: PAYMENT_VERIFIER, disputeVerifier: DISPUTE_VERIFIER } });
  const side = await startEnclaveSide(
    loadConfig({
      ENCLAVE_PROOF_ATTESTORS: proofAttestor.address,
      ...(options.timestampBuffers ? { ENCLAVE_TIMESTAMP_BUFFERS: JSON.stringify(options.timestampBuffers) } : {}),
    }),
    options.store ?? new EmbeddedStore(),
    logger,
    { grpcAddress: '127.0.0.1:0', httpHost: '127.0.0.1', httpPort: 0 },
    { now: options.now ?? (() => TEST_NOW), chains, platformTimeoutMs: 5_000, ...(options.producer ? { producer: options.producer } : {}) },
  );
  const { service, server } = side;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.httpUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };
  return {
    service,
    server,
    simulator: side.simulator!,
    mailer: side.mailer!,
    chains,
    logs,
    post: (path, body, headers) => call('POST', path, body, headers),
    get: (path) => call('GET', path),
    seal: (material, use, expiresAt = Math.floor((options.now ?? (() => TEST_NOW))() / 1000) + 600) =>
      sealSessionMaterial(service.attestationDocument(), material, { ...use, expiresAt }),
    stop: () => side.stop(),
  };
}

/** How one platform's payments look in the simulator, and who the maker is there. */
export interface PlatformFixture {
  platform: string;
  actionType: string;
  currency: string;
  /** The maker as the platform shows them as recipient. */
  payeeRaw: string;
  /** The maker's payee id after normalization: its keccak256 is the intent's payeeDetails. */
  payeeId: string;
  /** Another recipient, for the payee-mismatch refusal. */
  otherPayeeRaw: string;
  /** A fresh payment id in the platform's format. */
  paymentId(): string;
  extraParams?: (account: SimAccount) => Record<string, string>;
}

let counter = 100_000;
const next = () => String(++counter);

export const PLATFORM_FIXTURES: PlatformFixture[] = [
  {
    platform: 'venmo',
    actionType: 'transfer_venmo',
    currency: 'USD',
    payeeRaw: '3141592653',
    payeeId: '3141592653',
    otherPayeeRaw: '2718281828',
    paymentId: () => `41${next()}0011`,
  },
  {
    platform: 'cashapp',
    actionType: 'transfer_cashapp',
    currency: 'USD',
    payeeRaw: '$MakerMary',
    payeeId: 'makermary',
    otherPayeeRaw: '$someoneelse',
    paymentId: () => `tok_${next()}`,
  },
  {
    platform: 'monzo',
    actionType: 'transfer_monzo',
    currency: 'GBP',
    payeeRaw: '04-00-04 12345678',
    payeeId: '04000412345678',
    otherPayeeRaw: '04-00-04 87654321',
    paymentId: () => `tx_0000${next()}`,
  },
  {
    platform: 'wise',
    actionType: 'transfer_wise',
    currency: 'EUR',
    payeeRaw: '55501234',
    payeeId: '55501234',
    otherPayeeRaw: '55509999',
    paymentId: () => `9${next()}`,
    extraParams: (account) => ({ PROFILE_ID: account.id }),
  },
  {
    platform: 'revolut',
    actionType: 'transfer_revolut',
    currency: 'EUR',
    payeeRaw: 'MakerMary',
    payeeId: 'makermary',
    otherPayeeRaw: 'someoneelse',
    paymentId: () => `6a1f-${next()}`,
  },
  {
    platform: 'chime',
    actionType: 'transfer_chime',
    currency: 'USD',
    payeeRaw: '$Maker-Mary',
    payeeId: 'maker-mary',
    otherPayeeRaw: '$someone',
    paymentId: () => `ch_${next()}`,
  },
  {
    platform: 'zelle-chase',
    actionType: 'transfer_zelle_chase',
    currency: 'USD',
    payeeRaw: 'Mary@Example.com',
    payeeId: 'mary@example.com',
    otherPayeeRaw: 'other@example.com',
    paymentId: () => `2${next()}`,
  },
  {
    platform: 'zelle-bofa',
    actionType: 'transfer_zelle_bofa',
    currency: 'USD',
    payeeRaw: '+1 (415) 555-0100',
    payeeId: '4155550100',
    otherPayeeRaw: '+1 (415) 555-0199',
    paymentId: () => `BA${next()}`,
  },
  {
    platform: 'zelle-citi',
    actionType: 'transfer_zelle_citi',
    currency: 'USD',
    payeeRaw: 'mary@example.com',
    payeeId: 'mary@example.com',
    otherPayeeRaw: 'eve@example.com',
    paymentId: () => `CT${next()}`,
  },
  {
    platform: 'paypal',
    actionType: 'transfer_paypal',
    currency: 'USD',
    payeeRaw: 'Mary@Example.com',
    payeeId: 'mary@example.com',
    otherPayeeRaw: 'eve@example.com',
    paymentId: () => `8XK${next()}AB`,
  },
  {
    platform: 'paypal-business',
    actionType: 'transfer_paypal_business',
    currency: 'USD',
    payeeRaw: 'payouts@maker.example',
    payeeId: 'payouts@maker.example',
    otherPayeeRaw: 'eve@example.com',
    paymentId: () => `5PB${next()}CD`,
  },
];

/** 25 USDC at 1.0137 fiat per USDC: 25.3425, so 25.35 is owed (rounded up) and 25.34 falls short. */
export const INTENT_AMOUNT = 25_000_000n;
export const CONVERSION_RATE = 1_013_700_000_000_000_000n;
export const OWED_CENTS = 2535n;
export const SIGNAL_TIMESTAMP = Math.floor(Date.parse('2026-11-23T11:00:00Z') / 1000);
/** A day after the signal, as the local orchestrator sets it (DEFAULT_INTENT_EXPIRATION_SECONDS). */
export const EXPIRY_TIME = SIGNAL_TIMESTAMP + 24 * 60 * 60;

export function intentFor(fixture: PlatformFixture, overrides: Record<string, unknown> = {}) {
  return {
    intentHash: keccak256(toBytes(`intent-${next()}`)),
    amount: INTENT_AMOUNT.toString(),
    fiatCurrency: fixture.currency,
    payeeDetails: keccak256(toBytes(fixture.payeeId)),
    conversionRate: CONVERSION_RATE.toString(),
    signalTimestamp: SIGNAL_TIMESTAMP,
    expiryTime: EXPIRY_TIME,
    ...overrides,
  };
}

export interface PreparedPayment {
  material: Record<string, unknown>;
  account: SimAccount;
  payment: SimPayment;
  params: Record<string, string>;
}

/** A buyer session on the platform with one payment recorded; `payment` overrides the defaults (paid in full, to the maker, after the intent). */
export function preparePayment(enclave: TestEnclave, fixture: PlatformFixture, payment: Partial<SimPayment> = {}): PreparedPayment {
  const account: SimAccount = { id: `7${next()}`, username: 'buyer' };
  const material = enclave.simulator.openSession(fixture.platform, account);
  const recorded: SimPayment = {
    paymentId: fixture.paymentId(),
    amount: OWED_CENTS,
    currency: fixture.currency,
    payee: fixture.payeeRaw,
    timestampMs: SIGNAL_TIMESTAMP * 1000 + 5 * 60_000,
    status: 'completed',
    ...payment,
  };
  enclave.simulator.recordPayment(fixture.platform, material, recorded);
  return { material, account, payment: recorded, params: { PAYMENT_ID: recorded.paymentId, ...(fixture.extraParams?.(account) ?? {}) } };
}

export async function buyerVerify(
  enclave: TestEnclave,
  fixture: PlatformFixture,
  prepared: PreparedPayment,
  intent: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return enclave.post(`/buyer/verify/${fixture.platform}/${fixture.actionType}`, {
    encryptedSessionMaterial: await enclave.seal(prepared.material, paymentUse(fixture, intent, (extra.chainId as number | undefined) ?? TEST_CHAIN_ID)),
    params: prepared.params,
    intent,
    chainId: TEST_CHAIN_ID,
    ...extra,
  });
}

/** Whether a payment verification's answer is the EIP-712 PaymentAttestation its domain names, signed by `signer`. */
export async function isSignedPaymentAttestation(
  result: { domain: any; typedDataValue: { intentHash: Hex; releaseAmount: string; dataHash: Hex }; signature: Hex },
  signer: Address,
): Promise<boolean> {
  return verifyTypedData({
    address: signer,
    domain: result.domain,
    types: PAYMENT_ATTESTATION_TYPES,
    primaryType: 'PaymentAttestation',
    message: { ...result.typedDataValue, releaseAmount: BigInt(result.typedDataValue.releaseAmount) },
    signature: result.signature,
  });
}

export type { Address, Hex };

/** What a buyer seals a payment platform's session for: proving one intent's payment on one chain. */
export function paymentUse(fixture: Pick<PlatformFixture, 'platform'>, intent: Record<string, unknown>, chainId = TEST_CHAIN_ID): SessionUse {
  return { purpose: 'payment', platform: fixture.platform, chainId, intentHash: intent.intentHash as `0x${string}` };
}

/** The intent of an HTTP body as the gRPC IntentSnapshot. */
export function grpcIntent(intent: ReturnType<typeof intentFor>): IntentSnapshot {
  return {
    intentHash: intent.intentHash,
    amount: intent.amount,
    fiatCurrency: intent.fiatCurrency,
    payeeDetails: intent.payeeDetails,
    conversionRate: intent.conversionRate,
    signalTimestamp: BigInt(intent.signalTimestamp),
    expiryTime: BigInt(intent.expiryTime),
    disputeProtection: false,
  };
}
