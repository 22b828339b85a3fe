/** actors/adapters/enclave: the node's gRPC client of the attestation service, trusted only after its document's check. */
export { ENCLAVE_DEADLINE_MS, EnclaveClient } from './enclave-client.js';
export type { DocumentCheck } from './enclave-client.js';
