/**
 * Payment proofs on the local chain as the attestation service makes them: witnesses sign the
 * PaymentAttestation typed data (enclave/attestation/payment-attestation.ts), the proof is its
 * ABI encoding, and anybody relays it to fulfillIntent in FulfillIntentParams.
 */
import { keccak256, type Hash, type Hex, type LocalAccount } from 'viem';
import { encodePaymentProof, paymentAttestationTypedData, type PaymentAttestation } from '../../enclave/attestation/payment-attestation.js';
import { orchestratorAbi, protocolErrorsAbi, type LocalChain } from '../../indexer/chain/index.js';

/** The attestation that `witnesses` (one signature each, in order) give for releasing `releaseAmount` of the intent against `data`. */
export async function witnessAttestation(local: LocalChain, witnesses: readonly LocalAccount[], intentHash: Hash, releaseAmount: bigint, data: Hex): Promise<PaymentAttestation> {
  const message = { intentHash, releaseAmount, dataHash: keccak256(data) };
  const typedData = paymentAttestationTypedData(local.chainId, local.verifier, message);
  const signatures = await Promise.all(witnesses.map((witness) => witness.signTypedData(typedData)));
  return { ...message, signatures, data, metadata: '0x' };
}

/** fulfillIntent as `relayer`, for `intentHash` (the attestation's own by default). */
export async function fulfilOn(local: LocalChain, relayer: LocalAccount, attestation: PaymentAttestation, intentHash: Hash = attestation.intentHash): Promise<Hash> {
  return local.walletFor(relayer).writeContract({
    address: local.orchestrator,
    abi: [...orchestratorAbi, ...protocolErrorsAbi],
    functionName: 'fulfillIntent',
    args: [{ paymentProof: encodePaymentProof(attestation), intentHash, verificationData: '0x', postIntentHookData: '0x' }],
  });
}
