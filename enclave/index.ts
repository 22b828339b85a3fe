/**
 * enclave/: the attestation service of document 3. Payment, identity and dispute
 * evidence is checked inside the enclave boundary (boundary/: the signing key, the
 * session-material key, the measurement) and signed with EIP-712 for the on-chain
 * verifiers; platforms/ reads each payment platform, verification/ holds the one
 * payment verifier, attestation/ the typed data. It is served over gRPC and HTTP
 * (server.ts). simulator/ stands in for the platforms and sits outside the bundle.
 */
export * from './attestation-service.js';
export * from './requests.js';
export * from './boundary/enclave.js';
export * from './boundary/attestation-producer.js';
export * from './boundary/nitro-document.js';
export * from './boundary/key-management.js';
export * from './boundary/measurement.js';
export * from './chains.js';
export * from './errors.js';
export * from './server.js';
export * from './session-material.js';
export * from './session-context.js';
export * from './verification/used-payment-ids.js';
export * from '../machines/payment/payment-reference.js';
export * from './seller/seller-credentials.js';
export { platformClient } from './platforms/index.js';
