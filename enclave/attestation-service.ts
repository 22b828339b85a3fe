/**
 * The attestation service: the one place the HTTP and gRPC surfaces call. Each request
 * is checked in an order that changes nothing until the evidence holds: the request's
 * shape, the platform and action, the chain, the session material (decrypted in enclave
 * memory), the platform's own record, the verifier's rules, and only then the claim on
 * the payment id and the signature.
 */
import { getAddress, keccak256, recoverMessageAddress, type Address, type Hex } from 'viem';
import type { DNSResolver } from 'mailauth';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ATTESTATION_NONCE, type Enclave } from './boundary/enclave.js';
import type { ChainRegistry } from './chains.js';
import { AttestationError } from './errors.js';
import { paymentPlatform, PaymentNotFoundError, PlatformResponseError, type NormalizedPayment, type PaymentPlatform, type PlatformClient } from './platforms/index.js';
import { DEFAULT_TIMESTAMP_BUFFER_MS, intentSnapshot } from './verification/intent-snapshot.js';
import { verifyPayment } from './verification/payment-verifier.js';
import type { UsedPaymentIds } from './verification/used-payment-ids.js';
import { encodePaymentData, encodePaymentProof, paymentAttestationTypedData, paymentDetails, paymentNullifier } from './attestation/payment-attestation.js';
import { IdentityMismatchError, identityAction } from './identity/identity-actions.js';
import { identityTypedData, identityTypedValue } from './attestation/identity-attestation.js';
import { DISPUTE_VERIFIERS, verifyDisputeEmail } from './dispute/dispute-verifiers.js';
import {
  buyerProofRequest,
  buyerVerifyRequest,
  disputeRequest,
  disputeSessionMaterial,
  identityRequest,
  parseParams,
  parseRequest,
  parseSession,
  providerProofDigest,
  type PaymentSource,
} from './requests.js';
import { disputeAttestationTypedData, encodeDisputeData } from './attestation/dispute-attestation.js';

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
  /** Per platform, how long before an intent's signal its payment may be dated (ms); a minute where unset. */
  timestampBuffers?: Record<string, number>;
}

/** How old a buyer proof may be: the payment it shows must still stand. */
const MAX_PROOF_AGE_MS = 3_600_000n;
/** How far an attestor's clock may run ahead of ours. */
const PROOF_CLOCK_SKEW_MS = 300_000n;

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

  /** The document signed for a client's nonce (document 3's enclave attestation read). */
  async attestationDocumentFor(nonce: unknown) {
    if (typeof nonce !== 'string' || !ATTESTATION_NONCE.test(nonce)) {
      throw new AttestationError('INVALID_REQUEST', 400, 'nonce must be 16 to 64 random bytes as lower-case 0x hex');
    }
    return this.#options.enclave.attestationDocumentFor(nonce as Hex, this.#now());
  }

  /** Buyer TEE: the enclave reads the payment from the platform with the buyer's session. */
  async verifyBuyerPayment(platformId: string, actionType: string, body: unknown) {
    const request = parseRequest(buyerVerifyRequest, body);
    const platform = this.#platform(platformId, actionType);
    const verifier = this.#options.chains.paymentVerifier(request.chainId, request.verifyingContract);
    const paymentParams = parseParams(platform.params, request.params);
    const use = { purpose: 'payment' as const, platform: platform.id, chainId: request.chainId, intentHash: request.intent.intentHash as Hex };
    const material = await this.#options.enclave.openSessionMaterial(request.encryptedSessionMaterial, use, this.#now());
    const session = parseSession(platform.id, platform.session, material);
    const response = await this.#options.platforms(platform.id, platform.paymentRequest(session, paymentParams));
    const payment = this.#normalize(platform, response, paymentParams);
    const account = platform.account;
    const sessionAccount = account ? await this.#read(async () => account.read(await this.#options.platforms(platform.id, account.request(session)))) : null;
    return this.#attestPayment(platform, actionType, payment, request, verifier, 'buyer-tee', sessionAccount);
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
    // A proof shows the payment as it stood when fetched; a stale one could show a payment since reversed.
    const fetchedMs = BigInt(timestamp) * 1000n;
    const now = BigInt(this.#now());
    const earliestMs = request.intent.signalTimestamp * 1000n - this.#timestampBuffer(platform.id);
    if (fetchedMs < earliestMs || fetchedMs > now + PROOF_CLOCK_SKEW_MS || now - fetchedMs > MAX_PROOF_AGE_MS) {
      throw new AttestationError('PROOF_STALE', 422, `the proof must be fetched after the intent was signalled and at most ${MAX_PROOF_AGE_MS / 60_000n} minutes ago`);
    }
    let response: unknown;
    try {
      response = JSON.parse(responseBody);
    } catch {
      throw new AttestationError('PROOF_RESPONSE_INVALID', 422, "the proof's response body is not JSON");
    }
    // The response came with the request, so a shape this client cannot read is the caller's error, not the platform's.
    const payment = this.#normalize(platform, response, paymentParams, 'PROOF_RESPONSE_INVALID');
    // A proof carries one response and no session: a payment that names its payer cannot be tied to the buyer.
    return this.#attestPayment(platform, actionType, payment, request, verifier, 'buyer-proof', null);
  }

  async registerIdentity(body: unknown) {
    const request = parseRequest(identityRequest, body);
    const action = identityAction(request.platform, request.actionType);
    if (!action) {
      throw new AttestationError('UNSUPPORTED_ACTION', 400, `no identity action ${request.actionType} on ${request.platform}; see document 3 for the five supported`);
    }
    const actionParams = parseParams(action.params, request.params);
    // The chain's payment verifier is the contract that registers this signer as its witness there.
    const verifyingContract = this.#options.chains.paymentVerifier(request.chainId);
    const use = { purpose: 'identity' as const, platform: action.platform, callerAddress: request.callerAddress as Address };
    const material = await this.#options.enclave.openSessionMaterial(request.encryptedSessionMaterial, use, this.#now());
    const session = parseSession(action.platform, action.session, material);
    const response = await this.#options.platforms(action.platform, action.request(session, actionParams));
    let identity;
    try {
      identity = action.read(response, actionParams);
    } catch (error) {
      if (error instanceof IdentityMismatchError) throw new AttestationError('IDENTITY_NOT_VERIFIED', 422, error.message);
      if (error instanceof PlatformResponseError) throw new AttestationError('PLATFORM_RESPONSE_INVALID', 502, error.message);
      throw error;
    }
    const issuedAt = BigInt(Math.floor(this.#now() / 1000));
    const validUntil = issuedAt + BigInt(this.#options.identityTtlSeconds ?? 86_400);
    const seen = { platform: action.platform, actionType: action.actionType, payeeId: identity.payeeId, username: identity.username };
    const typedDataValue = identityTypedValue(seen, getAddress(request.callerAddress), issuedAt, validUntil);
    const typedData = identityTypedData(request.chainId, verifyingContract, typedDataValue);
    const signature = await this.#options.enclave.signTypedData(typedData);
    this.#options.logger.info({ platform: action.platform, actionType: action.actionType, payeeIdHash: typedDataValue.payeeIdHash }, 'identity attested');
    return {
      identity: { ...seen, method: typedDataValue.method, payeeIdHash: typedDataValue.payeeIdHash, metadata: identity.metadata },
      typedDataValue: { ...typedDataValue, issuedAt: issuedAt.toString(), validUntil: validUntil.toString() },
      domain: typedData.domain,
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
    const use = { purpose: 'dispute' as const, platform: platformId, chainId: request.chainId, intentHash: request.intentHash as Hex };
    const material = await this.#options.enclave.openSessionMaterial(request.encryptedSessionMaterial, use, this.#now());
    const { rawEmail } = parseSession(platformId, disputeSessionMaterial, material);
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

  #timestampBuffer(platformId: string): bigint {
    const configured = this.#options.timestampBuffers?.[platformId];
    return configured === undefined ? DEFAULT_TIMESTAMP_BUFFER_MS : BigInt(configured);
  }

  #platform(platformId: string, actionType: string): PaymentPlatform<unknown> {
    const platform = paymentPlatform(platformId);
    if (!platform) throw new AttestationError('UNSUPPORTED_PLATFORM', 404, `no payment verifier for platform ${platformId}`);
    if (platform.actionType !== actionType) {
      throw new AttestationError('UNSUPPORTED_ACTION', 400, `${platformId} payments are verified with action ${platform.actionType}, not ${actionType}`);
    }
    return platform;
  }

  /** The session's account as the platform answered it; an answer this client cannot read is the platform's fault. */
  async #read(read: () => Promise<string>): Promise<string> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof PlatformResponseError) throw new AttestationError('PLATFORM_RESPONSE_INVALID', 502, error.message);
      throw error;
    }
  }

  /**
   * `unreadable`: what an answer this client cannot read is. Read from the platform, it is
   * the platform's fault (502); handed in by the caller, as a proof's response, the caller's (422).
   */
  #normalize(
    platform: PaymentPlatform<unknown>,
    response: unknown,
    paymentParams: Record<string, string>,
    unreadable: 'PLATFORM_RESPONSE_INVALID' | 'PROOF_RESPONSE_INVALID' = 'PLATFORM_RESPONSE_INVALID',
  ): NormalizedPayment {
    try {
      return platform.normalize(response, paymentParams);
    } catch (error) {
      if (error instanceof PaymentNotFoundError) throw new AttestationError('PAYMENT_NOT_FOUND', 422, error.message);
      if (error instanceof PlatformResponseError) throw new AttestationError(unreadable, unreadable === 'PROOF_RESPONSE_INVALID' ? 422 : 502, error.message);
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
    sessionAccount: string | null,
  ) {
    const intent = intentSnapshot(request.intent, platform.id, this.#timestampBuffer(platform.id));
    const log = this.#options.logger.child({ platform: platform.id, intentHash: intent.intentHash, source });
    let releaseAmount: bigint;
    try {
      ({ releaseAmount } = verifyPayment(payment, intent, sessionAccount));
      const details = paymentDetails(platform.id, payment);
      const nullifier = paymentNullifier(details);
      const claim = await this.#options.usedPaymentIds.claim(request.chainId, nullifier, intent.intentHash, platform.id);
      const data = encodePaymentData(details, intent);
      const message = { intentHash: intent.intentHash, releaseAmount, dataHash: keccak256(data) };
      const typedData = paymentAttestationTypedData(request.chainId, verifyingContract, message);
      const signature = await this.#options.enclave.signTypedData(typedData).catch(async (error: unknown) => {
        // Nothing was signed: a claim made for it now would only keep a real payment from its intent.
        if (claim === 'CLAIMED') await this.#options.usedPaymentIds.release(request.chainId, nullifier, intent.intentHash);
        throw error;
      });
      log.info({ releaseAmount: releaseAmount.toString(), dataHash: message.dataHash }, 'payment attested');
      const typedDataValue = { intentHash: message.intentHash, releaseAmount: releaseAmount.toString(), dataHash: message.dataHash };
      return {
        signer: this.signer,
        signature,
        domain: typedData.domain,
        typedDataValue,
        encodedPaymentDetails: data,
        paymentDetails: { ...details, amount: details.amount.toString(), timestamp: details.timestamp.toString() },
        /** FulfillIntentParams.paymentProof, as the orchestrator takes it: the ABI-encoded PaymentAttestation. */
        paymentProof: encodePaymentProof({ ...message, signatures: [signature], data, metadata: '0x' }),
        metadata: { source, platform: platform.id, actionType },
      };
    } catch (error) {
      if (error instanceof AttestationError) log.info({ code: error.code }, 'payment refused');
      throw error;
    }
  }
}
