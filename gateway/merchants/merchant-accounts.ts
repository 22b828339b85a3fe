/**
 * Merchant accounts as the gateway reads them: from the merchant actors' views,
 * never by waking an actor. Looked up by API key hash (a unique index) or by id.
 *
 * Every API-key request and every hosted read needs one, so accounts are kept in
 * memory, never older than the last write a caller can have seen answered:
 * - On a node that serves every shard (the embedded deployment) no other node writes
 *   merchants, and the runtime reports each write on this one before its turn
 *   answers. The write drops the account, so a rotated key is refused and a changed
 *   setting applied from the very next request, and a hit reads nothing.
 * - In a cluster another node may write (an admin call through any node) and nothing
 *   tells this one in time; a cache refreshed by the event bus would accept a
 *   rotated key for as long as the event takes. There a hit is checked against the
 *   stored document's version first: one read by `_id` that returns only the version.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { ActorDocument } from '../../actors/runtime/actor-document.js';
import type { Environment } from '../../machines/merchant/index.js';
import type { MerchantProfile } from '../schemas/merchant-schemas.js';

/** The profile as the merchant kind keeps it: the MerchantProfile the API answers, whose configuration is always set. */
export type MerchantProfileView = MerchantProfile & { merchantConfig: NonNullable<MerchantProfile['merchantConfig']> };

export interface MerchantAccount {
  merchantId: string;
  environment: Environment;
  apiKeyIpAllowlist: string[];
  apiKeyHash: string;
  twinId: string;
  profile: MerchantProfileView;
}

interface MerchantView {
  profile: MerchantProfileView;
  environment: Environment;
  twinId: string;
  apiKeyHash: string;
}

/** Accounts kept at most; past it the oldest kept leaves (a merchant's next request reads it again). */
const CAPACITY = 10_000;

interface Kept {
  version: number;
  account: MerchantAccount;
}

export class MerchantAccounts {
  readonly #byId = new Map<string, Kept>();
  readonly #idByKeyHash = new Map<string, string>();
  /** Whether this node hears of every merchant write, or must check each hit's version. */
  readonly #hearsEveryWrite: boolean;
  /** Moves on every merchant write heard: an account read before it may predate the write and is not kept. */
  #writes = 0;

  constructor(private readonly system: ActorSystem) {
    this.#hearsEveryWrite = system.servesEveryShard;
    if (this.#hearsEveryWrite) {
      system.onWrite('merchant', (merchantId) => {
        this.#writes++;
        this.#drop(merchantId);
      });
    }
  }

  async byKeyHash(apiKeyHash: string): Promise<MerchantAccount | null> {
    const kept = await this.#current(this.#idByKeyHash.get(apiKeyHash));
    if (kept?.account.apiKeyHash === apiKeyHash) return kept.account;
    return this.#read({ 'view.apiKeyHash': apiKeyHash });
  }

  async byId(merchantId: string): Promise<MerchantAccount | null> {
    return (await this.#current(merchantId))?.account ?? this.#read({ _id: merchantId });
  }

  /** The kept account of `merchantId` if it is still the stored one. */
  async #current(merchantId: string | undefined): Promise<Kept | undefined> {
    const kept = merchantId === undefined ? undefined : this.#byId.get(merchantId);
    if (!kept || this.#hearsEveryWrite) return kept;
    const stored = await this.system.documents('merchant').findOne({ _id: merchantId }, { projection: { version: 1 } });
    if (stored?.version === kept.version) return kept;
    this.#drop(merchantId!);
    return undefined;
  }

  async #read(filter: Record<string, string>): Promise<MerchantAccount | null> {
    const writes = this.#writes;
    const doc = await this.system.documents('merchant').findOne(filter, { projection: { view: 1, version: 1 } });
    if (!doc) return null;
    const found = deepFreeze(account(doc._id, doc.view as unknown as MerchantView));
    if (writes === this.#writes) this.#keep(doc, found);
    return found;
  }

  #keep(doc: ActorDocument, found: MerchantAccount): void {
    this.#drop(found.merchantId);
    if (this.#byId.size >= CAPACITY) this.#drop(this.#byId.keys().next().value!);
    this.#byId.set(found.merchantId, { version: doc.version, account: found });
    this.#idByKeyHash.set(found.apiKeyHash, found.merchantId);
  }

  #drop(merchantId: string): void {
    const kept = this.#byId.get(merchantId);
    if (!kept) return;
    this.#byId.delete(merchantId);
    if (this.#idByKeyHash.get(kept.account.apiKeyHash) === merchantId) this.#idByKeyHash.delete(kept.account.apiKeyHash);
  }
}

function account(merchantId: string, view: MerchantView): MerchantAccount {
  return {
    merchantId,
    environment: view.environment,
    apiKeyIpAllowlist: view.profile.apiKeyIpAllowlist,
    apiKeyHash: view.apiKeyHash,
    twinId: view.twinId,
    profile: view.profile,
  };
}

/** Kept accounts are shared by every request that reads them: none may change one under the others. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
