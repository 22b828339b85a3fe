/**
 * enclave/: the attestation service (gRPC and its HTTP surface), EIP-712 signing
 * and the per-platform payment verifiers. Built by the enclave issue.
 */
export {};
