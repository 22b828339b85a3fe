/**
 * Checking a dispute attestation before it opens anything (docs/disputes.md): the
 * attestation service's EIP-712 DisputeAttestation, in the dispute verifier's domain of
 * the node's chain, signed by a signer the node trusts, over exactly the dispute it
 * states (its payment id, case id and data). Whoever holds one (the customer who got the
 * platform's e-mail, or the maker) may present it: the signature is the authentication.
 */
import { decodeAbiParameters, isAddressEqual, keccak256, recoverTypedDataAddress, type Hex } from 'viem';
import { idHash } from '../../machines/id-hash.js';
import { ApiError } from '../envelope.js';
import type { OpenDisputeBody } from './dispute-schemas.js';

/** The EIP-712 shape the attestation service signs (enclave/attestation/dispute-attestation.ts). */
const DISPUTE_ATTESTATION_TYPES = {
  DisputeAttestation: [
    { name: 'intentHash', type: 'bytes32' },
    { name: 'paymentId', type: 'bytes32' },
    { name: 'disputeId', type: 'bytes32' },
    { name: 'dataHash', type: 'bytes32' },
  ],
} as const;

export interface DisputeTrust {
  chainId: number;
  /** The dispute verifier the attestations of this node's chain are signed for: its escrow. */
  disputeVerifier: Hex;
  /** The attestation service signers this node trusts. */
  signers: readonly Hex[];
}

const invalid = (why: string) => new ApiError(422, `the dispute attestation is not valid here: ${why}`, 'DISPUTE_ATTESTATION_INVALID');

/** Throws DISPUTE_ATTESTATION_INVALID unless the attestation holds; answers the intent it disputes. */
export async function checkDisputeAttestation(trust: DisputeTrust, body: OpenDisputeBody): Promise<Hex> {
  const { dispute, domain, typedDataValue: value } = body;
  if (domain.name !== 'DisputeVerifier' || domain.version !== '1') throw invalid('it is not signed in the dispute verifier’s domain');
  if (domain.chainId !== trust.chainId || !isAddressEqual(domain.verifyingContract as Hex, trust.disputeVerifier))
    throw invalid(`it is for chain ${domain.chainId}’s verifier ${domain.verifyingContract}, not this node’s`);
  if (keccak256(body.data as Hex) !== value.dataHash) throw invalid('dataHash is not the hash of data');
  if (idHash(dispute.paymentId) !== value.paymentId || idHash(dispute.disputeId) !== value.disputeId)
    throw invalid('the signed payment or case id is not the one stated');
  const [platform, paymentId, disputeId, signingDomain, emailDate] = decodeAbiParameters(
    [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }],
    body.data as Hex,
  );
  if (
    platform !== idHash(dispute.platform) ||
    paymentId !== value.paymentId ||
    disputeId !== value.disputeId ||
    signingDomain !== idHash(dispute.signingDomain) ||
    emailDate !== BigInt(dispute.emailDate)
  )
    throw invalid('data does not state the dispute given');
  const signer = await recoverTypedDataAddress({
    domain: { ...domain, verifyingContract: domain.verifyingContract as Hex },
    types: DISPUTE_ATTESTATION_TYPES,
    primaryType: 'DisputeAttestation',
    message: {
      ...value,
      intentHash: value.intentHash as Hex,
      paymentId: value.paymentId as Hex,
      disputeId: value.disputeId as Hex,
      dataHash: value.dataHash as Hex,
    },
    signature: body.signature as Hex,
  }).catch(() => null);
  if (!signer || !trust.signers.some((trusted) => isAddressEqual(trusted, signer)))
    throw invalid('it is not signed by an attestation service this node trusts');
  return value.intentHash as Hex;
}
