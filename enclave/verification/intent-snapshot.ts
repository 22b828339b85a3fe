/**
 * The intent a payment is checked against, as the caller read it from the chain. The
 * enclave cannot see the chain, so it signs the snapshot into the attestation's data;
 * the on-chain verifier then holds it to the intent it has.
 */
import type { Hex } from 'viem';
import { z } from 'zod';
import { idHash } from '../../machines/id-hash.js';

export interface IntentSnapshot {
  intentHash: Hex;
  /** USDC base units locked by the intent. */
  amount: bigint;
  /** keccak256 of the payment platform's id, as the intent's paymentMethod. */
  paymentMethod: Hex;
  /** The ISO 4217 code the fiat must be paid in, and its keccak256 as the chain holds it. */
  fiatCurrencyCode: string;
  fiatCurrency: Hex;
  /** keccak256 of the maker's payee id on the platform. */
  payeeDetails: Hex;
  /** Fiat per USDC with 18 decimals. */
  conversionRate: bigint;
  /** Unix seconds of the block that signalled the intent. */
  signalTimestamp: bigint;
  /** Unix seconds after which a payment no longer counts for the intent, as the orchestrator set it. */
  expiryTime: bigint;
  /**
   * How far outside [signal, expiry] a payment may be dated, in milliseconds, at either end:
   * platform and chain clocks disagree.
   */
  timestampBuffer: bigint;
  /**
   * Whether the intent's deposit has dispute protection, as the caller read it from the escrow:
   * what the PURCHASE_PROTECTION penalty is charged on. Signed into the data's penalties, not
   * into the snapshot the on-chain verifier holds to the intent (the intent does not carry it).
   */
  disputeProtection: boolean;
}

/** How far outside its intent's window a payment may be dated where the service sets nothing else for the platform. */
export const DEFAULT_TIMESTAMP_BUFFER_MS = 60_000n;

const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits');
const baseUnits = z.string().regex(/^[1-9]\d{0,77}$/, 'must be a positive integer of base units, as a decimal string');
/** 9999-12-31T23:59:59Z: every refusal names a payment's and an intent's times as dates, and a Date ends soon after. */
const LAST_SECOND = 253_402_300_799;
const seconds = z
  .union([z.number().int().min(0), z.string().regex(/^\d{1,15}$/)])
  .transform((value) => BigInt(value))
  .refine((value) => value <= BigInt(LAST_SECOND), 'must be Unix seconds no later than 9999-12-31');

/** The intent as a request carries it: amounts and rates as decimal strings of base units. */
export const intentSnapshotInput = z
  .object({
    intentHash: bytes32,
    amount: baseUnits,
    fiatCurrency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
    payeeDetails: bytes32,
    conversionRate: baseUnits,
    signalTimestamp: seconds,
    expiryTime: seconds,
    disputeProtection: z.boolean().default(false),
  })
  .strict()
  // An intent that expires when it is signalled has no window: no payment could be checked against it.
  .refine((intent) => intent.expiryTime > intent.signalTimestamp, {
    message: 'must be after signalTimestamp',
    path: ['expiryTime'],
    // Compared only once the intent parsed as an object and both its times parsed: anything else is refused as itself.
    when: ({ issues }) => issues.every((issue) => issue.continue === true && issue.path?.[0] !== 'signalTimestamp' && issue.path?.[0] !== 'expiryTime'),
  });

export { idHash };

/** `timestampBufferMs` is the service's, for the platform: how far its clock and the chain's may disagree is no caller's choice. */
export function intentSnapshot(input: z.output<typeof intentSnapshotInput>, platformId: string, timestampBufferMs: bigint): IntentSnapshot {
  return {
    intentHash: input.intentHash.toLowerCase() as Hex,
    amount: BigInt(input.amount),
    paymentMethod: idHash(platformId),
    fiatCurrencyCode: input.fiatCurrency,
    fiatCurrency: idHash(input.fiatCurrency),
    payeeDetails: input.payeeDetails.toLowerCase() as Hex,
    conversionRate: BigInt(input.conversionRate),
    signalTimestamp: input.signalTimestamp,
    expiryTime: input.expiryTime,
    timestampBuffer: timestampBufferMs,
    disputeProtection: input.disputeProtection,
  };
}
