/**
 * What the attestation service's HTTP answers carry, as zod schemas for its OpenAPI
 * document (openapi.ts): each answer's `responseObject`, and the envelope around it.
 * They describe what attestation-service.ts returns, which builds its answers by hand;
 * test/enclave/openapi.test.ts holds real answers to them, so a changed answer that is
 * not changed here fails there. Objects are closed: a field nobody documented is drift.
 */
import { z } from 'zod';
import { ATTESTATION_NONCE, SESSION_KEY_ALGORITHM } from '../boundary/enclave.js';

// The service's hashes, ABI encodings and signatures come from viem, always lower case; addresses are checksummed.
const hex = z
  .string()
  .regex(/^0x(?:[0-9a-f]{2})*$/)
  .meta({ description: 'Bytes as lower-case 0x hex' });
const bytes32 = z
  .string()
  .regex(/^0x[0-9a-f]{64}$/)
  .meta({ description: '32 bytes as lower-case 0x hex' });
const signature = z
  .string()
  .regex(/^0x[0-9a-f]{130}$/)
  .meta({ description: 'A 65-byte secp256k1 signature (r ‖ s ‖ v)' });
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .meta({ description: 'An EIP-55 checksummed address' });
const uint = z
  .string()
  .regex(/^(?:0|[1-9]\d*)$/)
  .meta({ description: 'A uint256 as a decimal string: JSON numbers lose precision past 2^53' });
const time = z.iso.datetime();
// Not z.base64(): its `format: base64` is no format JSON Schema 2020-12 knows, and validators warn of it.
const base64 = z
  .string()
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/)
  .meta({ contentEncoding: 'base64' });
const chainId = z.number().int().positive();

function eip712Domain(name: string) {
  return z.object({ name: z.literal(name), version: z.literal('1'), chainId, verifyingContract: address });
}

export const encryptionKey = z
  .object({
    kty: z.literal('EC'),
    crv: z.literal('P-256'),
    x: z.string(),
    y: z.string(),
    kid: z.string().meta({ description: 'The RFC 7638 thumbprint of the key, which the binding names' }),
    alg: z.literal(SESSION_KEY_ALGORITHM),
    use: z.literal('enc'),
  })
  .meta({ id: 'EnclaveEncryptionKey', description: 'Seal session material to this key: compact JWE, ECDH-ES+A256KW with A256GCM. A new key each start.' });

export const attestationEvidence = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('software') }),
    z.object({ kind: z.literal('nitro'), document: base64.meta({ description: "The Nitro Secure Module's COSE_Sign1, base64" }) }),
  ])
  .meta({ id: 'AttestationEvidence', description: "The hardware's word for `binding`: `software` where there is none" });

export const attestationDocument = z
  .object({
    version: z.literal(1),
    measurement: z.string().meta({ description: "The code bundle's hash (`sha256:…`) or, on Nitro, `pcr0:…`; compare with the published value" }),
    signer: address.meta({ description: 'The address the on-chain verifiers register as a witness' }),
    encryptionKey,
    issuedAt: time,
    nonce: z.string().regex(ATTESTATION_NONCE).optional().meta({ description: "The client's nonce, when it asked with one" }),
    binding: z.string().meta({ description: '`peer-enclave-attestation:v1:<measurement>:<kid>:<issuedAt>`, then `:<nonce>` when asked with one' }),
    bindingSignature: signature.meta({ description: "The signer's EIP-191 signature over `binding`" }),
    evidence: attestationEvidence,
  })
  .meta({ id: 'AttestationDocument' });

export const paymentAttestation = z
  .object({
    signer: address,
    signature: signature.meta({ description: 'EIP-712 over typedDataValue in domain' }),
    domain: eip712Domain('UnifiedPaymentVerifier'),
    typedDataValue: z.object({ intentHash: bytes32, releaseAmount: uint.meta({ description: 'USDC base units: the whole intent' }), dataHash: bytes32 }),
    encodedPaymentDetails: hex.meta({ description: 'abi.encode(PaymentDetails, IntentSnapshot); its keccak256 is dataHash' }),
    paymentDetails: z.object({
      method: bytes32,
      payeeId: bytes32,
      amount: uint.meta({ description: 'Fiat cents' }),
      currency: bytes32,
      timestamp: uint.meta({ description: 'Unix milliseconds' }),
      paymentId: bytes32,
    }),
    paymentProof: hex.meta({
      description: "The ABI-encoded PaymentAttestation, to pass unchanged as FulfillIntentParams.paymentProof to the orchestrator's fulfillIntent",
    }),
    metadata: z.object({
      source: z
        .enum(['buyer-tee', 'buyer-proof', 'seller-tee'])
        .meta({ description: "Whose evidence: the buyer's session, a buyer's provider proof, or the payee's kept credential" }),
      platform: z.string(),
      actionType: z.string(),
    }),
  })
  .meta({ id: 'PaymentAttestation' });

export const identityAttestation = z
  .object({
    identity: z.object({
      platform: z.string(),
      actionType: z.string(),
      payeeId: z.string(),
      username: z.string(),
      method: bytes32,
      payeeIdHash: bytes32,
      metadata: z.record(z.string(), z.string()).meta({ description: "What else the platform's answer showed, per action" }),
    }),
    typedDataValue: z.object({
      method: bytes32,
      actionType: bytes32,
      callerAddress: address,
      payeeIdHash: bytes32,
      dataHash: bytes32,
      issuedAt: uint.meta({ description: 'Unix seconds' }),
      validUntil: uint.meta({ description: 'Unix seconds' }),
    }),
    domain: eip712Domain('PeerIdentityAttestation'),
    signature,
    signer: address,
  })
  .meta({ id: 'IdentityAttestation' });

export const disputeAttestation = z
  .object({
    signer: address,
    signature,
    domain: eip712Domain('DisputeVerifier'),
    typedDataValue: z.object({ intentHash: bytes32, paymentId: bytes32, disputeId: bytes32, dataHash: bytes32 }),
    data: hex.meta({ description: 'abi.encode(method, paymentId, disputeId, signingDomain, emailDate), ids hashed; its keccak256 is dataHash' }),
    dispute: z.object({
      platform: z.string(),
      paymentId: z.string(),
      disputeId: z.string(),
      signingDomain: z.string(),
      emailDate: uint.meta({ description: "The e-mail's Date header, Unix seconds" }),
    }),
    metadata: z.object({ source: z.literal('dispute-email') }),
  })
  .meta({ id: 'DisputeAttestation' });

export const disputeVerifierList = z
  .object({ verifiers: z.array(z.object({ platform: z.string(), actionType: z.string(), signingDomain: z.string() })) })
  .meta({ id: 'DisputeVerifierList' });

export const sellerPlatformList = z
  .object({ platforms: z.array(z.object({ platform: z.string(), actionType: z.string().meta({ description: 'The action its seller verify path names' }) })) })
  .meta({ id: 'SellerPlatformList' });

export const sellerCredential = z
  .object({
    credentialId: z.string().regex(/^scr_[0-9a-f]{24}$/),
    platform: z.string(),
    payeeDetails: bytes32,
    owner: address.meta({ description: 'Who uploaded it: the only address that may revoke it' }),
    status: z.enum(['ACTIVE', 'REJECTED', 'REVOKED']).meta({ description: 'REJECTED: the platform refused the session when the seller path used it' }),
    enabled: z.boolean().meta({ description: 'ACTIVE: the orderbook’s sellerAutomatedReleaseEnabled' }),
    available: z.boolean().meta({ description: 'Enabled and unexpired: sellerAutomatedReleaseAvailable' }),
    createdAt: time,
    expiresAt: time,
    endedAt: time.nullable().meta({ description: 'When it was revoked, or the platform refused it' }),
    lastResolvedAt: time.nullable().meta({ description: 'When it last proved a payment' }),
  })
  .meta({ id: 'SellerCredential', description: 'What anyone may read of a kept credential: never the sealed session' });

const envelopeFields = (status: number) => ({
  success: z.literal(status < 300),
  message: z.string().meta({ description: 'For a person or a log line; branch on errorCode' }),
  statusCode: z.literal(status).meta({ description: 'The HTTP status' }),
});

/** A success's envelope around `responseObject`. */
export function answered(status: number, responseObject: z.ZodType) {
  return z.object({ ...envelopeFields(status), responseObject });
}

/** A refusal's envelope: `responseObject` null, `errorCode` one of `codes`. */
export function refused(status: number, codes: readonly [string, ...string[]]) {
  return z.object({ ...envelopeFields(status), responseObject: z.null(), errorCode: z.enum(codes) });
}
