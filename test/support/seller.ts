/**
 * The seller path's test set-up: a maker's session on a seller platform (the account
 * deposits name as payee) sealed for the seller path, kept with the service, and
 * payments the maker received as that session sees them.
 */
import { keccak256, toBytes, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { SessionUse } from '../../enclave/index.js';
import type { ResolveSellerPaymentRequest } from '../../proto/gen/peer/enclave/v1/enclave.js';
import type { SimAccount, SimPayment } from '../../enclave/simulator/index.js';
import type { SellerReleaseRail } from '../../machines/rails.js';
import {
  OWED_CENTS,
  PLATFORM_FIXTURES,
  SIGNAL_TIMESTAMP,
  TEST_CHAIN_ID,
  TEST_NOW,
  grpcIntent,
  type PlatformFixture,
  type TestEnclave,
  type intentFor,
} from './enclave.js';

const fixture = (platform: SellerReleaseRail) => PLATFORM_FIXTURES.find((candidate) => candidate.platform === platform)!;

export const venmo = fixture('venmo');
/** The payee the maker's Venmo deposits name, and so the key of their credential. */
export const SELLER_PAYEE = keccak256(toBytes(venmo.payeeId));
const WEEK = 7 * 86_400;

/**
 * The maker on each platform: an account whose own id, as the platform's account read
 * answers it, is the fixture's payee; and who pays them, where the platform names a sender.
 */
const MAKERS: Record<SellerReleaseRail, { account: SimAccount; payer?: string }> = {
  venmo: { account: { id: venmo.payeeId, username: 'maker' }, payer: '7777000111' },
  cashapp: { account: { id: '9001', username: 'MakerMary', handle: fixture('cashapp').payeeRaw }, payer: '$BuyerBob' },
  wise: { account: { id: fixture('wise').payeeId, username: 'maker', handle: '@makermary' } },
};

export interface MakerSession {
  platform: SellerReleaseRail;
  fixture: PlatformFixture;
  /** keccak256 of the maker's payee id: what their deposits, and so the intents they are paid for, name. */
  payeeDetails: Hex;
  owner: PrivateKeyAccount;
  material: Record<string, unknown>;
  /** Sealed for the seller path by `owner`, unless the test seals it for another use or caller. */
  seal(use?: { callerAddress?: Hex; purpose?: 'seller' | 'identity' }): Promise<string>;
  /** An upload body for this session, kept a week unless `extra` says otherwise. */
  uploadBody(extra?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** A live session of the maker's account on `platform` (Venmo unless named), opened in the test enclave's simulator. */
export function makerSession(enclave: TestEnclave, options: { platform?: SellerReleaseRail; owner?: PrivateKeyAccount } = {}): MakerSession {
  const platform = options.platform ?? 'venmo';
  const owner = options.owner ?? privateKeyToAccount(generatePrivateKey());
  const material = enclave.simulator.openSession(platform, MAKERS[platform].account);
  const seal: MakerSession['seal'] = (use = {}) =>
    enclave.seal(material, { purpose: use.purpose ?? 'seller', platform, callerAddress: use.callerAddress ?? owner.address } as SessionUse);
  const payeeDetails = keccak256(toBytes(fixture(platform).payeeId));
  return {
    platform,
    fixture: fixture(platform),
    payeeDetails,
    owner,
    material,
    seal,
    uploadBody: async (extra = {}) => ({
      encryptedSessionMaterial: await seal(),
      callerAddress: owner.address,
      payeeDetails,
      expiresAt: Math.floor(TEST_NOW / 1000) + WEEK,
      ...extra,
    }),
  };
}

/** Keeps the session with the service for the seller path, as the maker's upload does. */
export async function keepCredential(enclave: TestEnclave, session: MakerSession) {
  const kept = await enclave.post(`/seller/credentials/${session.platform}`, await session.uploadBody());
  if (kept.status !== 201) throw new Error(`the ${session.platform} credential was not kept: ${JSON.stringify(kept.body)}`);
  return kept.body.responseObject;
}

/** A payment a buyer sent the maker, as the maker's session sees it: in full, in the fixture's currency, after the signal. */
export function receivedPayment(enclave: TestEnclave, session: Pick<MakerSession, 'platform' | 'material'>, payment: Partial<SimPayment> = {}): SimPayment {
  const { payer } = MAKERS[session.platform];
  const { paymentId, currency, payeeRaw } = fixture(session.platform);
  const recorded: SimPayment = {
    paymentId: paymentId(),
    amount: OWED_CENTS,
    currency,
    payee: payeeRaw,
    ...(payer === undefined ? {} : { payer }),
    direction: 'incoming',
    timestampMs: SIGNAL_TIMESTAMP * 1000 + 5 * 60_000,
    status: 'completed',
    ...payment,
  };
  enclave.simulator.recordPayment(session.platform, session.material, recorded);
  return recorded;
}

/** The gRPC request resolving `paymentId`, the receipt id, for `intent` on the maker's platform. */
export function resolveRequest(
  session: Pick<MakerSession, 'platform' | 'fixture'>,
  paymentId: string,
  intent: ReturnType<typeof intentFor>,
): ResolveSellerPaymentRequest {
  return {
    platform: session.platform,
    actionType: session.fixture.actionType,
    params: { PAYMENT_ID: paymentId },
    intent: grpcIntent(intent),
    chainId: BigInt(TEST_CHAIN_ID),
  };
}
