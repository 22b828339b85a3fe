/**
 * Which contracts an attestation is signed for. The service resolves the verifier from
 * the request's chain id; a caller that still sends the deprecated verifyingContract
 * must name the same address, or the request is refused rather than signed for a
 * contract the caller did not expect.
 */
import { getAddress, isAddress, type Address } from 'viem';
import { AttestationError } from './errors.js';

export interface ChainVerifiers {
  paymentVerifier: string;
  /** Absent where no dispute verifier is deployed: disputes for that chain are refused. */
  disputeVerifier?: string;
}

interface ResolvedVerifiers {
  paymentVerifier: Address;
  disputeVerifier?: Address;
}

export class ChainRegistry {
  readonly #chains = new Map<number, ResolvedVerifiers>();

  constructor(chains: Record<string, ChainVerifiers> = {}) {
    for (const [chainId, verifiers] of Object.entries(chains)) this.set(Number(chainId), verifiers);
  }

  set(chainId: number, verifiers: ChainVerifiers): void {
    this.#chains.set(chainId, {
      paymentVerifier: getAddress(verifiers.paymentVerifier),
      ...(verifiers.disputeVerifier ? { disputeVerifier: getAddress(verifiers.disputeVerifier) } : {}),
    });
  }

  chainIds(): number[] {
    return [...this.#chains.keys()];
  }

  paymentVerifier(chainId: number, verifyingContract?: string): Address {
    const resolved = this.#verifiers(chainId).paymentVerifier;
    if (verifyingContract !== undefined) {
      if (!isAddress(verifyingContract, { strict: false })) {
        throw new AttestationError('INVALID_VERIFYING_CONTRACT', 400, 'verifyingContract must be a 0x-prefixed 20-byte address');
      }
      if (getAddress(verifyingContract) !== resolved) {
        throw new AttestationError(
          'VERIFYING_CONTRACT_MISMATCH',
          400,
          `verifyingContract ${getAddress(verifyingContract)} is not the payment verifier of chain ${chainId} (${resolved}); omit it, the service resolves it from chainId`,
        );
      }
    }
    return resolved;
  }

  disputeVerifier(chainId: number): Address {
    const resolved = this.#verifiers(chainId).disputeVerifier;
    if (!resolved) throw new AttestationError('DISPUTE_VERIFIER_UNKNOWN', 400, `no dispute verifier is deployed on chain ${chainId}`);
    return resolved;
  }

  #verifiers(chainId: number): ResolvedVerifiers {
    const verifiers = this.#chains.get(chainId);
    if (!verifiers) {
      throw new AttestationError('UNSUPPORTED_CHAIN', 400, `chain ${chainId} is not served; supported chain ids: ${this.chainIds().join(', ') || 'none'}`);
    }
    return verifiers;
  }
}
