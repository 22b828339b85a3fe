/**
 * Which expiry an intent's gating approval gets. The orchestrator takes each approval once,
 * and nothing but the expiry tells two intents on the same terms (owner, deposit, amount,
 * payout address, rate, fee) apart: two customers paying one merchant's price in the same
 * second would get the same approval, and the second signal would revert with
 * GatingSignatureAlreadyUsed.
 *
 * One node keeps its expiries apart in memory (LocalExpiries). Nodes of a cluster sign for
 * the same relayer wallets, so they claim expiries in the cluster's store (StoredExpiries):
 * the claim of terms-and-expiry is a document with a unique _id, and the first node to
 * insert it has it; the next tries the second after. A claim outlives its approval's use by
 * far; claims an hour past their expiry are swept.
 */
import { keccak256, toBytes } from 'viem';
import { DuplicateKeyError } from '../../errors.js';
import type { Collection, Store, StoredDocument } from '../../store/store.js';

export interface ExpiryClaims {
  /** An expiry at or after `earliest` (unix seconds) no other approval of these terms has. */
  claim(terms: string, earliest: bigint): Promise<bigint>;
}

/** Every approval this process signs expires at least a second after the last one, whatever its terms. */
export class LocalExpiries implements ExpiryClaims {
  #last = 0n;

  async claim(_terms: string, earliest: bigint): Promise<bigint> {
    this.#last = earliest > this.#last ? earliest : this.#last + 1n;
    return this.#last;
  }
}

interface ClaimDocument extends StoredDocument {
  /** Unix milliseconds after which the claim may be swept. */
  sweepAfter: number;
}

const COLLECTION = 'gating_expiry_claims';
/** More claims of one terms in one window than this is a fault, not traffic. */
const MAX_TRIES = 600;
const KEEP_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 1000;

export class StoredExpiries implements ExpiryClaims {
  #sweptAt = 0;

  private constructor(
    private readonly claims: Collection<ClaimDocument>,
    private readonly now: () => number,
  ) {}

  static async open(store: Store, now: () => number): Promise<StoredExpiries> {
    const claims = await store.collection<ClaimDocument>({ name: COLLECTION, indexes: [{ key: { sweepAfter: 1 }, name: 'gating_expiry_claims_by_sweep' }] });
    return new StoredExpiries(claims, now);
  }

  async claim(terms: string, earliest: bigint): Promise<bigint> {
    this.#sweep();
    const sweepAfter = Number(earliest) * 1000 + KEEP_MS;
    for (let expiry = earliest; expiry < earliest + BigInt(MAX_TRIES); expiry++) {
      try {
        await this.claims.insertOne({ _id: `${terms}:${expiry}`, sweepAfter });
        return expiry;
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
      }
    }
    throw new Error(`no free gating approval expiry in the ${MAX_TRIES} seconds after ${earliest} for terms ${terms}`);
  }

  #sweep(): void {
    const now = this.now();
    if (now - this.#sweptAt < SWEEP_EVERY_MS) return;
    this.#sweptAt = now;
    // A sweep that fails leaves claims for the next one; it never holds up a signal.
    void this.claims.deleteMany({ sweepAfter: { $lt: now } }).catch(() => undefined);
  }
}

/** What identifies an approval's terms, its expiry aside: the key claims are made under. */
export function approvalTerms(fields: Record<string, string | bigint | number>): string {
  return keccak256(
    toBytes(
      Object.entries(fields)
        .map(([name, value]) => `${name}=${String(value)}`)
        .join(';'),
    ),
  );
}
