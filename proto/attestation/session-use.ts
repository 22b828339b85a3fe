/**
 * What sealed session material may be used for. The client writes it into the JWE's
 * protected header, which the content encryption authenticates, so it cannot be changed
 * without the enclave noticing; the enclave refuses the material for any other use
 * (enclave/session-context.ts checks it).
 */
import type { Address, Hex } from 'viem';

export type SessionPurpose = 'payment' | 'identity' | 'dispute' | 'seller';

/**
 * What the material is for: `intentHash` and `chainId` for a payment or a dispute,
 * `callerAddress` for an identity or a seller's credential (the address that may revoke it).
 */
export type SessionUse =
  | { purpose: 'payment' | 'dispute'; platform: string; chainId: number; intentHash: Hex }
  | { purpose: 'identity' | 'seller'; platform: string; callerAddress: Address };

/** The use, and until when (Unix seconds), as the protected header's `peer` member carries it. */
export type SessionContext = SessionUse & { expiresAt: number };

export const SESSION_CONTEXT_HEADER = 'peer';
