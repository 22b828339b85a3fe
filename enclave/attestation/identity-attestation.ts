/**
 * The identity attestation: the enclave's EIP-712 statement that `callerAddress` showed
 * a live session of the account `payeeIdHash` names, valid until `validUntil`. Its
 * dataHash is the keccak256 of the canonical identity, the ABI encoding of platform,
 * action, payee id and username, so a relying party can check what was seen.
 */
import { encodeAbiParameters, keccak256, type Address, type Hex } from 'viem';
import { idHash } from '../verification/intent-snapshot.js';

import { IDENTITY_ATTESTATION_DOMAIN, IDENTITY_ATTESTATION_TYPES } from '../../machines/platforms/index.js';

export { IDENTITY_ATTESTATION_DOMAIN, IDENTITY_ATTESTATION_TYPES };

export interface IdentityTypedValue {
  method: Hex;
  actionType: Hex;
  callerAddress: Address;
  payeeIdHash: Hex;
  dataHash: Hex;
  issuedAt: bigint;
  validUntil: bigint;
}

export function canonicalIdentityHash(identity: { platform: string; actionType: string; payeeId: string; username: string }): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'string' }, { type: 'string' }, { type: 'string' }, { type: 'string' }],
      [identity.platform, identity.actionType, identity.payeeId, identity.username],
    ),
  );
}

export function identityTypedValue(
  identity: { platform: string; actionType: string; payeeId: string; username: string },
  callerAddress: Address,
  issuedAt: bigint,
  validUntil: bigint,
): IdentityTypedValue {
  return {
    method: idHash(identity.platform),
    actionType: idHash(identity.actionType),
    callerAddress,
    payeeIdHash: idHash(identity.payeeId),
    dataHash: canonicalIdentityHash(identity),
    issuedAt,
    validUntil,
  };
}

/**
 * The typed data, in a domain that names the chain and the verifier that trusts this
 * enclave's signer there: an identity attested for one chain does not verify on another.
 */
export function identityTypedData(chainId: number, verifyingContract: Address, message: IdentityTypedValue) {
  return {
    domain: { ...IDENTITY_ATTESTATION_DOMAIN, chainId, verifyingContract },
    types: IDENTITY_ATTESTATION_TYPES,
    primaryType: 'IdentityAttestation' as const,
    message,
  };
}
