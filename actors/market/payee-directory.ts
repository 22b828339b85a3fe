/**
 * Whom a deposit is paid to. The escrow holds only keccak256 of a maker's payee id, so a
 * customer could not be told whom to pay from the chain alone: the directory keeps the
 * id itself for each hash a maker registered with us, per platform. A deposit whose payee
 * is not in the directory is never quoted. Makers register through document 3's maker
 * endpoints (a maker-record actor's effect, docs/makers.md); the local makers of the embedded
 * default register at seeding.
 */
import type { Hex } from 'viem';
import { idHash } from '../../machines/id-hash.js';
import { DuplicateKeyError } from '../errors.js';
import type { Collection, Store } from '../store/store.js';

type PayeeDoc = {
  _id: string;
  platform: string;
  payeeDetails: string;
  payeeId: string;
  registeredAt: string;
};

export interface Payee {
  platform: string;
  payeeDetails: Hex;
  payeeId: string;
}

const key = (platform: string, payeeDetails: string) => `${platform}:${payeeDetails.toLowerCase()}`;

export class PayeeDirectory {
  private constructor(private readonly payees: Collection<PayeeDoc>) {}

  static async open(store: Store): Promise<PayeeDirectory> {
    return new PayeeDirectory(await store.collection<PayeeDoc>({ name: 'payee_directory', indexes: [] }));
  }

  /** Registers `payeeId` on `platform`; registering it again changes nothing. */
  async register(platform: string, payeeId: string, at: string): Promise<Payee> {
    const payeeDetails = idHash(payeeId);
    try {
      await this.payees.insertOne({ _id: key(platform, payeeDetails), platform, payeeDetails, payeeId, registeredAt: at });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    return { platform, payeeDetails, payeeId };
  }

  /** The payee id behind `payeeDetails` on `platform`, or null when no maker registered it. */
  async lookup(platform: string, payeeDetails: string): Promise<string | null> {
    return (await this.payees.findOne({ _id: key(platform, payeeDetails) }))?.payeeId ?? null;
  }
}
