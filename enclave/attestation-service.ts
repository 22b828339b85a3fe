/**
 * The attestation service: the one place the HTTP and gRPC surfaces call. Each request
 * is checked in an order that changes nothing until the evidence holds: the request's
 * shape, the platform and action, the chain, the session material (decrypted in enclave
 * memory), the platform's own record, the verifier's rules, and only then the claim on
 * the payment id and the signature.
 */
import { getAddress, isAddress, keccak256, recoverMessageAddress, encodeAbiParameters, type Address, type Hex } from 'viem';
import type { DNSResolver } from 'mailauth';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Enclave } from './boundary/enclave.js';
import type { ChainRegistry } from './chains.js';
import { AttestationError } from './errors.js';
import { paymentPlatform, PaymentNotFoundError, PlatformResponseError, type NormalizedPayment, type PaymentPlatform, type PlatformClient } from './platforms/index.js';
import { intentSnapshot, intentSnapshotInput, idHash } from './verification/intent-snapshot.js';
import { verifyPayment } from './verification/payment-verifier.js';
import type { UsedPaymentIds } from './verification/used-payment-ids.js';
import { encodePaymentData, paymentAttestationTypedData, paymentDetails, paymentNullifier } from './attestation/payment-attestation.js';
import { identityAction } from './identity/identity-actions.js';
import { identityTypedData, identityTypedValue } from './attestation/identity-attestation.js';
import { DISPUTE_VERIFIERS, verifyDisputeEmail } from './dispute/dispute-verifiers.js';
import { disputeAttestationTypedData, encodeDisputeData } from './attestation/dispute-attestation.js';

export type PaymentSource = 'buyer-tee' | 'buyer-proof';

const MAX_SESSION_MATERIAL = 256 * 1024;
const encrypted = z.string().min(1, 'is required').max(MAX_SESSION_MATERIAL, `must be at most ${MAX_SESSION_MATERIAL} characters`);
const params = z.record(z.string(), z.string().max(1024)).default({});
const chainId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits');

export const buyerVerifyRequest = z
  .object({ encryptedSessionMaterial: encrypted, params, intent: intentSnapshotInput, chainId, verifyingContract: z.string().optional() })
  .strict();

/**
 * A provider proof a buyer's own client produced: the platform's response body, and a
 * trusted attestor's signature (EIP-191 over providerProofDigest) that the body came
 * from that platform over TLS.
 */
export const providerProof = z
  .object({ responseBody: z.string().min(2).max(MAX_SESSION_MATERIAL), timestamp: z.number().int().positive(), signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte signature') })
  .strict();

export const buyerProofRequest = z
  .object({ proof: providerProof, params, intent: intentSnapshotInput, chainId, verifyingContract: z.string().optional() })
  .strict();

export const identityRequest = z
  .object({
    platform: z.string().min(1),
    actionType: z.string().min(1),
    callerAddress: z.string().refine((value) => isAddress(value, { strict: false }), 'must be a 0x-prefixed 20-byte address'),
    encryptedSessionMaterial: encrypted,
    params,
  })
  .strict();

export const disputeRequest = z
  .object({ encryptedSessionMaterial: encrypted, params: z.object({}).strict().default({}), chainId, intentHash: hex32 })
  .strict();

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

export interface AttestationServiceOptions {
  enclave: Enclave;
  chains: ChainRegistry;
  platforms: PlatformClient;
  usedPaymentIds: UsedPaymentIds;
  /** Who may vouch for buyer-generated provider proofs. */
  proofAttestors?: Address[];
  /** DNS TXT lookups for DKIM keys; default the system's resolver. */
  dkimResolver?: DNSResolver;
  logger: Logger;
  now?: () => number;
  /** How long an identity attestation is valid; default a day. */
  identityTtlSeconds?: number;
}

/** Errors as a request's field paths and messages: never the values, which may be session material. */
export function parseRequest<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
  throw new AttestationError('INVALID_REQUEST', 400, details);
}

function parseSession<T extends z.ZodType>(platform: string, schema: T, material: unknown): z.output<T> {
  const parsed = schema.safeParse(material);
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`))].join('; ');
  throw new AttestationError('INVALID_SESSION_MATERIAL', 400, `the session material does not fit ${platform}: ${fields}`);
}

function parseParams<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new AttestationError('INVALID_PARAMS', 400, parsed.error.issues.map((issue) => `params.${issue.path.join('.')}: ${issue.message}`).join('; '));
}

export class AttestationService {
  readonly #options: AttestationServiceOptions;
  readonly #now: () => number;
  readonly #attestors: Set<Address>;

  constructor(options: AttestationServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#attestors = new Set((options.proofAttestors ?? []).map((address) => getAddress(address)));
  }

  get signer(): Address {
    return this.#options.enclave.signer;
  }

  attestationDocument() {
    return this.#options.enclave.attestationDocument();
  }

  /** Buyer TEE: the enclave reads the payment from the platform with the buyer's session. */
  async verifyBuyerPayment(platformId: string, actionType: string, body: unknown) {
    const request = parseRequest(buyerVerifyRequest, body);
    const platform = this.#platform(platformId, actionType);
    const verifier = this.#options.chains.paymentVerifier(request.chainId, request.verifyingContract);
    const paymentParams = parseParams(platform.params, request.params);
    const material = await this.#options.enclave.openSessionMaterial(request.encryptedSessionMaterial);
    const session = parseSession(platform.id, platform.session, material);
    const response = await this.#options.platforms(platform.id, platform.paymentRequest(session, paymentParams));
    const payment = this.#normalize(platform, response, paymentParams);
    return this.#attestPayment(platform, actionType, payment, request, verifier, 'buyer-tee');
  }

  /** Buyer proof: the platform's response arrives vouched for by a trusted attestor instead. */
  async verifyBuyerProof(platformId: string, actionType: string, body: unknown) {
    const request = parseRequest(buyerProofRequest, body);
    const platform = this.#platform(platformId, actionType);
    const verifier = this.#options.chains.paymentVerifier(request.chainId, request.verifyingContract);
    const paymentParams = parseParams(platform.params, request.params);
    const { responseBody, timestamp, signature } = request.proof;
    const digest = providerProofDigest(platform.id, request.intent.intentHash.toLowerCase() as Hex, responseBody, timestamp);
    const attestor = await recoverMessageAddress({ message: { raw: digest }, signature: signature as Hex }).catch(() => null);
    if (!attestor || !this.#attestors.has(attestor)) {
      throw new AttestationError('PROOF_NOT_TRUSTED', 422, 'the proof is not signed by a trusted attestor for this platform, intent and response');
    }
    let response: unknown;
    try {
      response = JSON.parse(responseBody);
    } catch {
      throw new AttestationError('PLATFORM_RESPONSE_INVALID', 422, 'the proof\'s response body is not JSON');
    }
    const payment = this.#normalize(platform, response, paymentParams);
    return this.#attestPayment(platform, actionType, payment, request, verifier, 'buyer-proof');
  }

  async registerIdentity(body: unknown) {
    const request = parseRequest(identityRequest, body);
    const action = identityAction(request.platform, request.actionType);
    if (!action) {
      throw new AttestationError('UNSUPPORTED_ACTION', 400, `no identity action ${request.actionType} on ${request.platform}; see document 3 for the five supported`);
    }
    const actionParams = parseParams(action.params, request.params);
    const material = await this.#options.enclave.openSessionMaterial(request.encryptedSessionMaterial);
    const session = parseSession(action.platform, action.session, material);
    const response = await this.#options.platforms(action.platform, action.request(session, actionParams));
    let identity;
    try {
      identity = action.read(response, actionParams);
    } catch (error) {
      if (error instanceof PlatformResponseError) throw new AttestationError('IDENTITY_NOT_VERIFIED', 422, error.message);
      throw error;
    }
    const issuedAt = BigInt(Math.floor(this.#now() / 1000));
    const validUntil = issuedAt + BigInt(this.#options.identityTtlSeconds ?? 86_400);
    const seen = { platform: action.platform, actionType: action.actionType, payeeId: identity.payeeId, username: identity.username };
    const typedDataValue = identityTypedValue(seen, getAddress(request.callerAddress), issuedAt, validUntil);
    const signature = await this.#options.enclave.signTypedData(identityTypedData(typedDataValue));
    this.#options.logger.info({ platform: action.platform, actionType: action.actionType, payeeIdHash: typedDataValue.payeeIdHash }, 'identity attested');
    return {
      identity: { ...seen, method: typedDataValue.method, payeeIdHash: typedDataValue.payeeIdHash, metadata: identity.metadata },
      typedDataValue: { ...typedDataValue, issuedAt: issuedAt.toString(), validUntil: validUntil.toString() },
      signature,
      signer: this.signer,
    };
  }

  disputeVerifiers() {
    return DISPUTE_VERIFIERS.map(({ platform, actionType, signingDomain }) => ({ platform, actionType, signingDomain }));
  }

  async verifyDispute(platformId: string, actionType: string, body: unknown) {
    const request = parseRequest(disputeRequest, body);
    const spec = DISPUTE_VERIFIERS.find((candidate) => candidate.platform === platformId);
    if (!spec) throw new AttestationError('UNSUPPORTED_PLATFORM', 404, `no dispute verifier for ${platformId}; supported: venmo, paypal`);
    if (actionType !== spec.actionType) throw new AttestationError('UNSUPPORTED_ACTION', 400, `the dispute action of ${platformId} is ${spec.actionType}`);
    const verifyingContract = this.#options.chains.disputeVerifier(request.chainId);
    const material = await this.#options.enclave.openSessionMaterial(request.encryptedSessionMaterial);
    const { rawEmail } = parseSession(platformId, z.object({ rawEmail: z.string().min(1).max(MAX_SESSION_MATERIAL) }).strict(), material);
    const dispute = await verifyDisputeEmail(spec, rawEmail, this.#options.dkimResolver, new Date(this.#now()));
    const data = encodeDisputeData(dispute);
    const typedData = disputeAttestationTypedData(request.chainId, verifyingContract, request.intentHash.toLowerCase() as Hex, dispute, data);
    const signature = await this.#options.enclave.signTypedData(typedData);
    this.#options.logger.info({ platform: platformId, intentHash: request.intentHash, signingDomain: dispute.signingDomain }, 'dispute attested');
    return {
      signer: this.signer,
      signature,
      domain: typedData.domain,
      typedDataValue: typedData.message,
      data,
      dispute: { ...dispute, emailDate: dispute.emailDate.toString() },
      metadata: { source: 'dispute-email' },
    };
  }

  #platform(platformId: string, actionType: string): PaymentPlatform<unknown> {
    const platform = paymentPlatform(platformId);
    if (!platform) throw new AttestationError('UNSUPPORTED_PLATFORM', 404, `no payment verifier for platform ${platformId}`);
    if (platform.actionType !== actionType) {
      throw new AttestationError('UNSUPPORTED_ACTION', 400, `${platformId} payments are verified with action ${platform.actionType}, not ${actionType}`);
    }
    return platform;
  }

  #normalize(platform: PaymentPlatform<unknown>, response: unknown, paymentParams: Record<string, string>): NormalizedPayment {
    try {
      return platform.normalize(response, paymentParams);
    } catch (error) {
      if (error instanceof PaymentNotFoundError) throw new AttestationError('PAYMENT_NOT_FOUND', 422, error.message);
      if (error instanceof PlatformResponseError) throw new AttestationError('PLATFORM_RESPONSE_INVALID', 502, error.message);
      throw error;
    }
  }

  async #attestPayment(
    platform: PaymentPlatform<unknown>,
    actionType: string,
    payment: NormalizedPayment,
    request: z.output<typeof buyerVerifyRequest> | z.output<typeof buyerProofRequest>,
    verifyingContract: Address,
    source: PaymentSource,
  ) {
    const intent = intentSnapshot(request.intent, platform.id);
    const log = this.#options.logger.child({ platform: platform.id, intentHash: intent.intentHash, source });
    let releaseAmount: bigint;
    try {
      ({ releaseAmount } = verifyPayment(payment, intent));
      const details = paymentDetails(platform.id, payment);
      await this.#options.usedPaymentIds.claim(paymentNullifier(details), intent.intentHash, platform.id);
      const data = encodePaymentData(details, intent);
      const message = { intentHash: intent.intentHash, releaseAmount, dataHash: keccak256(data) };
      const typedData = paymentAttestationTypedData(request.chainId, verifyingContract, message);
      const signature = await this.#options.enclave.signTypedData(typedData);
      log.info({ releaseAmount: releaseAmount.toString(), dataHash: message.dataHash }, 'payment attested');
      const typedDataValue = { intentHash: message.intentHash, releaseAmount: releaseAmount.toString(), dataHash: message.dataHash };
      return {
        signer: this.signer,
        signature,
        domain: typedData.domain,
        typedDataValue,
        encodedPaymentDetails: data,
        paymentDetails: { ...details, amount: details.amount.toString(), timestamp: details.timestamp.toString() },
        /** What the orchestrator's fulfillIntent takes as the attestation. */
        paymentProof: { ...typedDataValue, signature, data },
        metadata: { source, platform: platform.id, actionType },
      };
    } catch (error) {
      if (error instanceof AttestationError) log.info({ code: error.code }, 'payment refused');
      throw error;
    }
  }
}
