/**
 * enclave/: the attestation service of document 3. Payment, identity and dispute
 * evidence is checked inside the enclave boundary (boundary/: the signing key, the
 * session-material key, the measurement) and signed with EIP-712 for the on-chain
 * verifiers; platforms/ reads each payment platform, verification/ holds the one
 * payment verifier, attestation/ the typed data. It is served over gRPC and HTTP
 * (server.ts). simulator/ stands in for the platforms and sits outside the bundle.
 */
export { AttestationService } from './attestation-service.js';
export type { AttestationServiceOptions } from './attestation-service.js';
export {
  buyerProofRequest,
  buyerVerifyRequest,
  disputeRequest,
  disputeSessionMaterial,
  identityRequest,
  MAX_SESSION_MATERIAL,
  parseParams,
  parseRequest,
  parseSession,
  providerProof,
  providerProofDigest,
  sellerCredentialRequest,
  sellerResolveRequest,
  sellerRevokeRequest,
} from './requests.js';
export type { PaymentSource } from './requests.js';
export { ATTESTATION_NONCE, attestationBinding, Enclave, SESSION_CONTENT_ENCRYPTION, SESSION_KEY_ALGORITHM } from './boundary/enclave.js';
export type { AttestationDocument, OpenEnclaveOptions } from './boundary/enclave.js';
export { checkNitroEvidence, NitroAttestationProducer, nitroMeasurement, softwareProducer, statementDigest } from './boundary/attestation-producer.js';
export type { AttestationEvidence, AttestationProducer, NitroSecureModule, NitroTrust } from './boundary/attestation-producer.js';
export { COSE_ES384, coseSign1SigStructure, NitroDocumentError, verifyNitroDocument } from './boundary/nitro-document.js';
export type { NitroAttestation } from './boundary/nitro-document.js';
export { KeyReleaseDeniedError, LocalKeyManagement } from './boundary/key-management.js';
export type { EnclaveEvidence, KeyManagement } from './boundary/key-management.js';
export { ENCLAVE_BUNDLE_DIR, measureBundle } from './boundary/measurement.js';
export { ChainRegistry } from './chains.js';
export type { ChainVerifiers } from './chains.js';
export { AttestationError, PaymentRefusedError } from './errors.js';
export { ENCLAVE_SERVICE_NAME, startEnclaveServer } from './server.js';
export type { EnclaveServerOptions, RunningEnclave } from './server.js';
export { checkAttestationDocument, checkDocumentBinding, sealSessionMaterial, UntrustedEnclaveError } from './session-material.js';
export type { TrustedEnclave } from './session-material.js';
export { checkSessionContext, MAX_SESSION_LIFETIME_SECONDS, SESSION_CONTEXT_HEADER } from './session-context.js';
export type { SessionContext, SessionPurpose, SessionUse } from './session-context.js';
export { USED_PAYMENT_IDS_COLLECTION, UsedPaymentIds } from './verification/used-payment-ids.js';
export { NO_PENALTIES } from './verification/penalty-policy.js';
export type { PenaltyPolicy } from './verification/penalty-policy.js';
export type { Claim, UsedPaymentIdCollection, UsedPaymentIdDocument } from './verification/used-payment-ids.js';
export { memoNamesIntent, paymentReference } from '../machines/payment/payment-reference.js';
export {
  credentialKey,
  credentialView,
  MAX_CREDENTIAL_LIFETIME_SECONDS,
  revocationMessage,
  SELLER_CREDENTIALS_COLLECTION,
  storageLabel,
} from './seller/seller-credentials.js';
export type { SellerCredentialCollection, SellerCredentialDocument, SellerCredentialStatus } from './seller/seller-credentials.js';
export { platformClient } from './platforms/index.js';
