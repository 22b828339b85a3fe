/**
 * The intent a payment is checked against, as the caller read it from the chain. The
 * enclave cannot see the chain, so it signs the snapshot into the attestation's data;
 * the on-chain verifier then holds it to the intent it has.
 */
import { keccak256, toBytes, type Hex } from 'viem';
import { z } from 'zod';

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
  /** How long before the signal a payment may be dated, in milliseconds: platform and chain clocks disagree. */
  timestampBuffer: bigint;
}

export const CONVERSION_RATE_DECIMALS = 18;

/** The most a payment may be dated before its intent's signal: beyond this, clock skew is not the explanation. */
export const MAX_TIMESTAMP_BUFFER_MS = 3_600_000n;

const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits');
const baseUnits = z.string().regex(/^[1-9]\d{0,77}$/, 'must be a positive integer of base units, as a decimal string');
const seconds = z.union([z.number().int().min(0), z.string().regex(/^\d{1,15}$/)]).transform((value) => BigInt(value));

/** The intent as a request carries it: amounts and rates as decimal strings of base units. */
export const intentSnapshotInput = z
  .object({
    intentHash: bytes32,
    amount: baseUnits,
    fiatCurrency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
    payeeDetails: bytes32,
    conversionRate: baseUnits,
    signalTimestamp: seconds,
    timestampBuffer: seconds.refine((value) => value <= MAX_TIMESTAMP_BUFFER_MS, `must be at most ${MAX_TIMESTAMP_BUFFER_MS} ms`).default(0n),
  })
  .strict();

/** The hash the chain stores for a platform id, currency code, payee id or payment id. */
export function idHash(text: string): Hex {
  return keccak256(toBytes(text));
}

export function intentSnapshot(input: z.output<typeof intentSnapshotInput>, platformId: string): IntentSnapshot {
  return {
    intentHash: input.intentHash.toLowerCase() as Hex,
    amount: BigInt(input.amount),
    paymentMethod: idHash(platformId),
    fiatCurrencyCode: input.fiatCurrency,
    fiatCurrency: idHash(input.fiatCurrency),
    payeeDetails: input.payeeDetails.toLowerCase() as Hex,
    conversionRate: BigInt(input.conversionRate),
    signalTimestamp: input.signalTimestamp,
    timestampBuffer: input.timestampBuffer,
  };
}
