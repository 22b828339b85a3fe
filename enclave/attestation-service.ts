/**
 * The attestation service: the one place the HTTP and gRPC surfaces call. Each request
 * is checked in an order that changes nothing until the evidence holds: the request's
 * shape, the platform and action, the chain, the session material (decrypted in enclave
 * memory), the platform's own record, the verifier's rules, and only then the claim on
 * the payment id and the signature.
 */
import { randomBytes } from 'node:crypto';
import { getAddress, isAddressEqual, keccak256, recoverMessageAddress, type Address, type Hex } from 'viem';
import type { DNSResolver } from 'mailauth';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { ATTESTATION_NONCE, type Enclave } from './boundary/enclave.js';
import type { ChainRegistry } from './chains.js';
import { AttestationError } from './errors.js';
import {
  SELLER_PLATFORMS,
  paymentPlatform,
  PaymentNotFoundError,
  PlatformResponseError,
  type NormalizedPayment,
  type PaymentPlatform,
  type PlatformClient,
} from './platforms/index.js';
import { DEFAULT_TIMESTAMP_BUFFER_MS, idHash, intentSnapshot } from './verification/intent-snapshot.js';
import { verifyPayment, type PaymentSide } from './verification/payment-verifier.js';
import type { UsedPaymentIds } from './verification/used-payment-ids.js';
import type { PenaltyPolicy } from './verification/penalty-policy.js';
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
  sellerCredentialRequest,
  sellerResolveRequest,
  sellerRevokeRequest,
  type PaymentSource,
} from './requests.js';
import {
  MAX_CREDENTIAL_LIFETIME_SECONDS,
  credentialKey,
  credentialView,
  revocationMessage,
  storageLabel,
  type SellerCredentialCollection,
  type SellerCredentialDocument,
} from './seller/seller-credentials.js';
import { disputeAttestationTypedData, encodeDisputeData } from './attestation/dispute-attestation.js';

export interface AttestationServiceOptions {
  enclave: Enclave;
  chains: ChainRegistry;
  platforms: PlatformClient;
  usedPaymentIds: UsedPaymentIds;
  /** Makers' sealed platform sessions for the seller path. */
  sellerCredentials: SellerCredentialCollection;
  /** Who may vouch for buyer-generated provider proofs. */
  proofAttestors?: Address[];
  /** DNS TXT lookups for DKIM keys; default the system's resolver. */
  dkimResolver?: DNSResolver;
  logger: Logger;
  now?: () => number;
  /** How long an identity attestation is valid; default a day. */
  identityTtlSeconds?: number;
  /** Per platform, how far outside an intent's window (its signal to its expiry) its payment may be dated (ms); a minute where unset. */
  timestampBuffers?: Record<string, number>;
  /** The penalty and exchange rates the service applies and signs (penalty-policy.ts); none where unset. */
  penalties?: PenaltyPolicy;
}

/** How old a buyer proof may be: the payment it shows must still stand. */
const MAX_PROOF_AGE_MS = 3_600_000n;
/** How far an attestor's clock may run ahead of ours. */
const PROOF_CLOCK_SKEW_MS = 300_000n;
/** How far a revocation's time may be from ours: a signature is good for one revocation, now. */
const REVOCATION_WINDOW_SECONDS = 300;
const hex32 = /^0x[0-9a-fA-F]{64}$/;

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
    // Only a payment that names its payer needs the session's account: a ledger's own payments were made by it.
    const account = payment.payerId === null ? null : await this.#sessionAccount(platform, session);
    return this.#attestPayment(platform, actionType, payment, request, verifier, 'buyer-tee', account);
  }

  /** The platforms the seller path serves, with the action its verify path names. */
  sellerPlatforms() {
    return SELLER_PLATFORMS.map((id) => ({ platform: id, actionType: paymentPlatform(id)!.actionType }));
  }

  /** Seller path: a maker's session kept sealed in the store, so the enclave can read payments to them without the buyer. */
  async uploadSellerCredential(platformId: string, body: unknown) {
    const request = parseRequest(sellerCredentialRequest, body);
    const platform = this.#sellerPlatform(platformId);
    const now = this.#now();
    const nowSeconds = Math.floor(now / 1000);
    if (request.expiresAt <= nowSeconds || request.expiresAt > nowSeconds + MAX_CREDENTIAL_LIFETIME_SECONDS) {
      throw new AttestationError('INVALID_REQUEST', 400, `expiresAt must be in the future and at most ${MAX_CREDENTIAL_LIFETIME_SECONDS / 86_400} days ahead`);
    }
    const owner = getAddress(request.callerAddress);
    const material = await this.#options.enclave.openSessionMaterial(
      request.encryptedSessionMaterial,
      { purpose: 'seller', platform: platform.id, callerAddress: owner },
      now,
    );
    const session = parseSession(platform.id, platform.session, material);
    const account = await this.#sessionAccount(platform, session);
    const payeeDetails = request.payeeDetails.toLowerCase() as Hex;
    if (account === null || idHash(account) !== payeeDetails) {
      throw new AttestationError('CREDENTIAL_PAYEE_MISMATCH', 422, `the session's ${platform.id} account is not the payee payeeDetails names`);
    }
    const _id = credentialKey(platform.id, payeeDetails);
    const credentialId = `scr_${randomBytes(12).toString('hex')}`;
    const doc: SellerCredentialDocument = {
      _id,
      credentialId,
      platform: platform.id,
      payeeDetails,
      owner,
      sealed: await this.#options.enclave.sealForStorage(material, storageLabel({ _id, credentialId })),
      status: 'ACTIVE',
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(request.expiresAt * 1000).toISOString(),
      endedAt: null,
      lastResolvedAt: null,
    };
    // The platform account's holder replaces whatever was kept for it: only they could have sealed this session.
    await this.#keep(doc);
    this.#options.logger.info({ platform: platform.id, payeeDetails, credentialId }, 'seller credential kept');
    return credentialView(doc, now);
  }

  async sellerCredential(platformId: string, payeeDetails: string) {
    return credentialView(await this.#credential(this.#sellerPlatform(platformId).id, payeeDetails), this.#now());
  }

  /** Every active credential's payee and expiry, for the orderbook: never the ciphertext. */
  async activeSellerCredentials(): Promise<Array<{ platform: string; payeeDetails: string; expiresAt: number }>> {
    const docs = await this.#options.sellerCredentials.find({ status: 'ACTIVE' });
    return docs.map((doc) => ({
      platform: doc.platform,
      payeeDetails: doc.payeeDetails.toLowerCase(),
      expiresAt: Math.floor(Date.parse(doc.expiresAt) / 1000),
    }));
  }

  /** Only the uploader's address revokes, by signing revocationMessage for this credential within five minutes of now. */
  async revokeSellerCredential(platformId: string, payeeDetails: string, body: unknown) {
    const request = parseRequest(sellerRevokeRequest, body);
    const doc = await this.#credential(this.#sellerPlatform(platformId).id, payeeDetails);
    const now = this.#now();
    if (Math.abs(request.issuedAt - Math.floor(now / 1000)) > REVOCATION_WINDOW_SECONDS) {
      throw new AttestationError('REVOCATION_STALE', 422, `issuedAt must be within ${REVOCATION_WINDOW_SECONDS} seconds of now`);
    }
    const signer = await recoverMessageAddress({ message: revocationMessage(doc.credentialId, request.issuedAt), signature: request.signature as Hex }).catch(
      () => null,
    );
    if (!signer || !isAddressEqual(signer, doc.owner)) {
      throw new AttestationError('REVOCATION_NOT_AUTHORIZED', 403, "the revocation is not signed by the credential's owner for this credential");
    }
    if (doc.status === 'REVOKED') return credentialView(doc, now);
    const revoked: SellerCredentialDocument = { ...doc, status: 'REVOKED', sealed: '', endedAt: new Date(now).toISOString() };
    await this.#options.sellerCredentials.replaceOne({ _id: doc._id, credentialId: doc.credentialId }, revoked);
    this.#options.logger.info({ platform: doc.platform, payeeDetails: doc.payeeDetails, credentialId: doc.credentialId }, 'seller credential revoked');
    return credentialView(revoked, now);
  }

  /**
   * The intent's payee's own session reads the payment it received; its memo must name the
   * intent. The caller names only the payment: params naming the account are the kept session's.
   */
  async resolveSellerPayment(platformId: string, actionType: string, body: unknown) {
    const request = parseRequest(sellerResolveRequest, body);
    const platform = this.#sellerPlatform(platformId, actionType);
    const verifier = this.#options.chains.paymentVerifier(request.chainId, request.verifyingContract);
    const accountParams = platform.accountParams ?? [];
    const named = accountParams.find((name) => Object.hasOwn(request.params, name));
    if (named !== undefined) {
      // Another profile's path would be refused by the platform, and that refusal would end the maker's credential.
      throw new AttestationError('INVALID_PARAMS', 400, `params.${named} is the payee's own account, which the seller path reads from the kept session`);
    }
    const now = this.#now();
    const doc = await this.#options.sellerCredentials.findOne({ _id: credentialKey(platform.id, request.intent.payeeDetails as Hex) });
    if (!doc || !credentialView(doc, now).available) {
      throw new AttestationError(
        'SELLER_CREDENTIAL_UNAVAILABLE',
        422,
        `the intent's payee keeps no active, unexpired ${platform.id} credential for the seller path`,
      );
    }
    const material = await this.#options.enclave.openFromStorage(doc.sealed, storageLabel(doc));
    if (!material) {
      throw new AttestationError(
        'SELLER_CREDENTIAL_UNAVAILABLE',
        422,
        'the kept credential was sealed by an enclave with another signing key: upload it again',
      );
    }
    const session = parseSession(platform.id, platform.session, material);
    let response: unknown;
    let account: string | null;
    let paymentParams: Record<string, string>;
    try {
      account = await this.#sessionAccount(platform, session);
      paymentParams = parseParams(platform.params, { ...request.params, ...Object.fromEntries(accountParams.map((name) => [name, account])) });
      response = await this.#options.platforms(platform.id, platform.paymentRequest(session, paymentParams));
    } catch (error) {
      if (!(error instanceof AttestationError) || error.code !== 'SESSION_REJECTED') throw error;
      // The platform ended the maker's session: the orderbook stops offering automated release until a new upload.
      await this.#options.sellerCredentials.updateOne(
        { _id: doc._id, credentialId: doc.credentialId, status: 'ACTIVE' },
        { $set: { status: 'REJECTED', endedAt: new Date(now).toISOString() } },
      );
      throw new AttestationError('SELLER_CREDENTIAL_REJECTED', 422, `${platform.id} refused the kept credential; the maker must upload a new one`);
    }
    const payment = this.#normalize(platform, response, paymentParams);
    const answer = await this.#attestPayment(platform, actionType, payment, request, verifier, 'seller-tee', account, 'seller');
    await this.#options.sellerCredentials.updateOne(
      { _id: doc._id, credentialId: doc.credentialId, status: 'ACTIVE' },
      { $set: { lastResolvedAt: new Date(now).toISOString() } },
    );
    return answer;
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
    // A proof shows the payment as it stood when fetched; a stale one could show a payment since reversed. A proof
    // fetched after the intent's expiry is a late proof, which stands: the verifier holds the payment's own date to the window.
    const fetchedMs = BigInt(timestamp) * 1000n;
    const now = BigInt(this.#now());
    const earliestMs = request.intent.signalTimestamp * 1000n - this.#timestampBuffer(platform.id);
    if (fetchedMs < earliestMs || fetchedMs > now + PROOF_CLOCK_SKEW_MS || now - fetchedMs > MAX_PROOF_AGE_MS) {
      throw new AttestationError(
        'PROOF_STALE',
        422,
        `the proof must be fetched after the intent was signalled and at most ${MAX_PROOF_AGE_MS / 60_000n} minutes ago`,
      );
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
      throw new AttestationError(
        'UNSUPPORTED_ACTION',
        400,
        `no identity action ${request.actionType} on ${request.platform}; see document 3 for the five supported`,
      );
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

  /** Insert or replace; two uploads at once both land, the later write kept. */
  async #keep(doc: SellerCredentialDocument): Promise<void> {
    const credentials = this.#options.sellerCredentials;
    if (await credentials.replaceOne({ _id: doc._id }, doc)) return;
    try {
      await credentials.insertOne(doc);
    } catch (error) {
      // Another upload inserted first; only a clash is answered by replacing it, any other failure is the store's.
      if (!(await credentials.replaceOne({ _id: doc._id }, doc))) throw error;
    }
  }

  /** A platform the seller path serves, and its payment action when the route names one. */
  #sellerPlatform(platformId: string, actionType?: string): PaymentPlatform<unknown> {
    const platform = actionType === undefined ? paymentPlatform(platformId) : this.#platform(platformId, actionType);
    if (!platform || !SELLER_PLATFORMS.includes(platform.id)) {
      throw new AttestationError('UNSUPPORTED_PLATFORM', 404, `the seller path does not serve ${platformId}; it serves ${SELLER_PLATFORMS.join(', ')}`);
    }
    return platform;
  }

  async #credential(platform: string, payeeDetails: string): Promise<SellerCredentialDocument> {
    if (!hex32.test(payeeDetails)) throw new AttestationError('INVALID_REQUEST', 400, 'payeeDetails must be 0x and 64 hex digits');
    const doc = await this.#options.sellerCredentials.findOne({ _id: credentialKey(platform, payeeDetails as Hex) });
    if (!doc) throw new AttestationError('CREDENTIAL_NOT_FOUND', 404, `no ${platform} seller credential for this payee`);
    return doc;
  }

  /**
   * The session's account as the platform answered it, on a platform whose payments name
   * their parties; null on a ledger platform. An answer this client cannot read is the platform's fault.
   */
  async #sessionAccount(platform: PaymentPlatform<unknown>, session: unknown): Promise<string | null> {
    const account = platform.account;
    if (!account) return null;
    try {
      return account.read(await this.#options.platforms(platform.id, account.request(session)));
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
    request: z.output<typeof buyerVerifyRequest> | z.output<typeof buyerProofRequest> | z.output<typeof sellerResolveRequest>,
    verifyingContract: Address,
    source: PaymentSource,
    sessionAccount: string | null,
    side: PaymentSide = 'buyer',
  ) {
    const intent = intentSnapshot(request.intent, platform.id, this.#timestampBuffer(platform.id));
    const log = this.#options.logger.child({ platform: platform.id, intentHash: intent.intentHash, source });
    try {
      const { releaseAmount, penalties } = verifyPayment(payment, intent, sessionAccount, side, this.#options.penalties);
      const details = paymentDetails(platform.id, payment);
      const nullifier = paymentNullifier(details);
      const claim = await this.#options.usedPaymentIds.claim(request.chainId, nullifier, intent.intentHash, platform.id);
      const data = encodePaymentData(details, intent, penalties);
      const message = { intentHash: intent.intentHash, releaseAmount, dataHash: keccak256(data) };
      const typedData = paymentAttestationTypedData(request.chainId, verifyingContract, message);
      const signature = await this.#options.enclave.signTypedData(typedData).catch(async (error: unknown) => {
        // Nothing was signed: a claim made for it now would only keep a real payment from its intent.
        if (claim === 'CLAIMED') await this.#options.usedPaymentIds.release(request.chainId, nullifier, intent.intentHash);
        throw error;
      });
      log.info(
        { releaseAmount: releaseAmount.toString(), dataHash: message.dataHash, penalties: penalties.map((term) => `${term.kind}:${term.penaltyBps}`) },
        'payment attested',
      );
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
