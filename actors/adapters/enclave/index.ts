/** actors/adapters/enclave: the node's gRPC client of the attestation service, trusted only after its document's check. */
export * from './enclave-client.js';
