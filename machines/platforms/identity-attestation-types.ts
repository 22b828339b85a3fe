/**
 * The identity attestation's EIP-712 shape (document 3, identity registration): what the
 * enclave signs and what a relying party (the payout checkout connecting an account) checks,
 * so the two sides read one definition.
 */
export const IDENTITY_ATTESTATION_DOMAIN = { name: 'PeerIdentityAttestation', version: '1' } as const;

export const IDENTITY_ATTESTATION_TYPES = {
  IdentityAttestation: [
    { name: 'method', type: 'bytes32' },
    { name: 'actionType', type: 'bytes32' },
    { name: 'callerAddress', type: 'address' },
    { name: 'payeeIdHash', type: 'bytes32' },
    { name: 'dataHash', type: 'bytes32' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'validUntil', type: 'uint256' },
  ],
} as const;
