/**
 * What the attestation service accepts: each request's schema, the message a provider
 * proof's attestor signs, and the parsers that turn a bad request into a refusal naming
 * field paths, never values (values may be session material).
 */
import { encodeAbiParameters, isAddress, keccak256, type Hex } from 'viem';
import { z } from 'zod';
import { AttestationError } from './errors.js';
import { idHash, intentSnapshotInput } from './verification/intent-snapshot.js';

export type PaymentSource = 'buyer-tee' | 'buyer-proof' | 'seller-tee';

export const MAX_SESSION_MATERIAL = 256 * 1024;
const encrypted = z.string().min(1, 'is required').max(MAX_SESSION_MATERIAL, `must be at most ${MAX_SESSION_MATERIAL} characters`);
const params = z.record(z.string(), z.string().max(1024)).default({});
const chainId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits');
const address = z.string().refine((value) => isAddress(value, { strict: false }), 'must be a 0x-prefixed 20-byte address');

export const buyerVerifyRequest = z
  .object({ encryptedSessionMaterial: encrypted, params, intent: intentSnapshotInput, chainId, verifyingContract: z.string().optional() })
  .strict();

/**
 * A provider proof a buyer's own client produced: the platform's response body, and a
 * trusted attestor's signature (EIP-191 over providerProofDigest) that the body came
 * from that platform over TLS.
 */
export const providerProof = z
  .object({
    responseBody: z.string().min(2).max(MAX_SESSION_MATERIAL),
    timestamp: z.number().int().positive(),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte signature'),
  })
  .strict();

export const buyerProofRequest = z
  .object({ proof: providerProof, params, intent: intentSnapshotInput, chainId, verifyingContract: z.string().optional() })
  .strict();

export const identityRequest = z
  .object({
    platform: z.string().min(1),
    actionType: z.string().min(1),
    callerAddress: address,
    encryptedSessionMaterial: encrypted,
    params,
    // Not in document 3's table: the attestation's EIP-712 domain names its chain, so one chain's identity is not another's.
    chainId,
  })
  .strict();

/** A maker's platform session, to keep for the seller path: who may revoke it, which payee it serves, until when. */
export const sellerCredentialRequest = z
  .object({
    encryptedSessionMaterial: encrypted,
    callerAddress: address,
    payeeDetails: hex32,
    /** Unix seconds: when the platform session ends, as the maker knows it; at most 30 days ahead. */
    expiresAt: z.number().int().positive(),
  })
  .strict();

/** The seller path needs no session from the caller: the stored credential of the intent's payee reads the payment. */
export const sellerResolveRequest = z.object({ params, intent: intentSnapshotInput, chainId, verifyingContract: z.string().optional() }).strict();

export const sellerRevokeRequest = z
  .object({ issuedAt: z.number().int().positive(), signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte signature') })
  .strict();

/** A dispute's session material: the platform's e-mail, whole. */
export const disputeSessionMaterial = z.object({ rawEmail: z.string().min(1).max(MAX_SESSION_MATERIAL) }).strict();

export const disputeRequest = z.object({ encryptedSessionMaterial: encrypted, params: z.object({}).strict().default({}), chainId, intentHash: hex32 }).strict();

/**
 * The message proof attestors sign: which platform answered what, when, for which
 * intent. The intent is the proof's context, as in the protocol's zkTLS proofs: a proof
 * made for one intent cannot be offered for another.
 */
export function providerProofDigest(platform: string, intentHash: Hex, responseBody: string, timestamp: number): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'string' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }],
      ['peer-provider-proof:v1', idHash(platform), intentHash, keccak256(new TextEncoder().encode(responseBody)), BigInt(timestamp)],
    ),
  );
}

/** Errors as a request's field paths and messages: never the values, which may be session material. */
export function parseRequest<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
  throw new AttestationError('INVALID_REQUEST', 400, details);
}

export function parseSession<T extends z.ZodType>(platform: string, schema: T, material: unknown): z.output<T> {
  const parsed = schema.safeParse(material);
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`))].join('; ');
  throw new AttestationError('INVALID_SESSION_MATERIAL', 400, `the session material does not fit ${platform}: ${fields}`);
}

export function parseParams<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new AttestationError('INVALID_PARAMS', 400, parsed.error.issues.map((issue) => `params.${issue.path.join('.')}: ${issue.message}`).join('; '));
}
