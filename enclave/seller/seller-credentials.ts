/**
 * Makers' stored platform credentials, one per (platform, payee): the session material
 * sealed to the enclave's storage key (boundary/enclave.ts sealForStorage), so the store
 * holds only ciphertext that opens nowhere but in an enclave holding this signing key.
 * A credential is ENABLED while ACTIVE (uploaded, not revoked, not refused by its
 * platform) and AVAILABLE while also unexpired: document 3's orderbook fields
 * sellerAutomatedReleaseEnabled and sellerAutomatedReleaseAvailable.
 */
import type { Address, Hex } from 'viem';

export type SellerCredentialStatus = 'ACTIVE' | 'REJECTED' | 'REVOKED';

export interface SellerCredentialDocument {
  /** `<platform>:<payeeDetails>`: a new upload for the same payee replaces the old. */
  _id: string;
  [field: string]: unknown;
  credentialId: string;
  platform: string;
  /** keccak256 of the payee id, as deposits name it; checked against the platform's own account at upload. */
  payeeDetails: Hex;
  /** Who uploaded it, and the only one who may revoke it. */
  owner: Address;
  /** The session material, sealed for storage under the label `<_id>:<credentialId>`. */
  sealed: string;
  status: SellerCredentialStatus;
  createdAt: string;
  expiresAt: string;
  /** When the platform last refused the session, or it was revoked. */
  endedAt: string | null;
  lastResolvedAt: string | null;
}

/** The store calls the registry makes; the platform store's collections answer them. */
export interface SellerCredentialCollection {
  findOne(filter: { _id: string }): Promise<SellerCredentialDocument | null>;
  find(filter: { status: 'ACTIVE' }): Promise<SellerCredentialDocument[]>;
  insertOne(doc: SellerCredentialDocument): Promise<void>;
  replaceOne(filter: { _id: string; credentialId?: string }, doc: SellerCredentialDocument): Promise<boolean>;
  /** Conditional on the credential still being the one read, and still ACTIVE: a revocation or a new upload meanwhile wins. */
  updateOne(filter: { _id: string; credentialId: string; status: 'ACTIVE' }, update: { $set: Partial<SellerCredentialDocument> }): Promise<boolean>;
}

export const SELLER_CREDENTIALS_COLLECTION = { name: 'enclave_seller_credentials', indexes: [] };

/** The longest a credential is kept: a platform's web session rarely outlives it, and a forgotten one should not live forever. */
export const MAX_CREDENTIAL_LIFETIME_SECONDS = 30 * 86_400;

export const credentialKey = (platform: string, payeeDetails: Hex) => `${platform}:${payeeDetails.toLowerCase()}`;
export const storageLabel = (doc: Pick<SellerCredentialDocument, '_id' | 'credentialId'>) => `seller-credential:${doc._id}:${doc.credentialId}`;

/** What the public read and the orderbook see of a credential: never the ciphertext. */
export function credentialView(doc: SellerCredentialDocument, now: number) {
  const enabled = doc.status === 'ACTIVE';
  return {
    credentialId: doc.credentialId,
    platform: doc.platform,
    payeeDetails: doc.payeeDetails,
    owner: doc.owner,
    status: doc.status,
    enabled,
    available: enabled && Date.parse(doc.expiresAt) > now,
    createdAt: doc.createdAt,
    expiresAt: doc.expiresAt,
    endedAt: doc.endedAt,
    lastResolvedAt: doc.lastResolvedAt,
  };
}

/** The message an owner signs (EIP-191) to revoke: the credential by id, at a time, so a signature is good for that one only. */
export function revocationMessage(credentialId: string, issuedAt: number): string {
  return `peer-seller-credential-revoke:v1:${credentialId}:${issuedAt}`;
}
