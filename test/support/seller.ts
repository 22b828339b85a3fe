/**
 * The seller path's test set-up: a maker's Venmo session (the account deposits name as
 * payee) sealed for the seller path, and payments the maker received as that session sees them.
 */
import { keccak256, toBytes, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { SessionUse } from '../../enclave/index.js';
import type { SimPayment } from '../../enclave/simulator/index.js';
import { OWED_CENTS, PLATFORM_FIXTURES, SIGNAL_TIMESTAMP, TEST_NOW, type TestEnclave } from './enclave.js';

export const venmo = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'venmo')!;
/** The payee the maker's deposits name, and so the key of their credential. */
export const SELLER_PAYEE = keccak256(toBytes(venmo.payeeId));
const WEEK = 7 * 86_400;

export interface MakerSession {
  owner: PrivateKeyAccount;
  material: Record<string, unknown>;
  /** Sealed for the seller path by `owner`, unless the test seals it for another use or caller. */
  seal(use?: { callerAddress?: Hex; purpose?: 'seller' | 'identity' }): Promise<string>;
  /** An upload body for this session, kept a week unless `extra` says otherwise. */
  uploadBody(extra?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export function makerSession(enclave: TestEnclave, owner = privateKeyToAccount(generatePrivateKey())): MakerSession {
  const material = enclave.simulator.openSession('venmo', { id: venmo.payeeId, username: 'maker' });
  const seal: MakerSession['seal'] = (use = {}) =>
    enclave.seal(material, { purpose: use.purpose ?? 'seller', platform: 'venmo', callerAddress: use.callerAddress ?? owner.address } as SessionUse);
  return {
    owner,
    material,
    seal,
    uploadBody: async (extra = {}) => ({
      encryptedSessionMaterial: await seal(),
      callerAddress: owner.address,
      payeeDetails: SELLER_PAYEE,
      expiresAt: Math.floor(TEST_NOW / 1000) + WEEK,
      ...extra,
    }),
  };
}

/** A payment a buyer sent the maker, recorded in the maker's session. */
export function receivedPayment(enclave: TestEnclave, material: Record<string, unknown>, payment: Partial<SimPayment> = {}): SimPayment {
  const recorded: SimPayment = {
    paymentId: venmo.paymentId(),
    amount: OWED_CENTS,
    currency: 'USD',
    payee: venmo.payeeRaw,
    payer: '7777000111',
    direction: 'incoming',
    timestampMs: SIGNAL_TIMESTAMP * 1000 + 5 * 60_000,
    status: 'completed',
    ...payment,
  };
  enclave.simulator.recordPayment('venmo', material, recorded);
  return recorded;
}
