/**
 * Merchant accounts as the gateway reads them: from the merchant actors' views,
 * never by waking an actor. Looked up by API key hash (a unique index) or by id.
 *
 * Every API-key request and every hosted read needs one, so accounts are kept in
 * memory (kept-views.ts), never older than the last write a caller can have seen
 * answered: a rotated key is refused and a changed setting applied from the very next
 * request. A cache refreshed by the event bus instead would accept a rotated key for as
 * long as the event takes.
 */
import { brandingOf, type Branding } from '../../machines/merchant/index.js';
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { ViewOf } from '../../actors/runtime/actor-kind.js';
import type { ViewFilter } from '../../actors/runtime/view-collection.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { deepFreeze } from '../../actors/store/deep-freeze.js';
import type { Environment } from '../../machines/merchant/index.js';
import type { PayoutSettings } from '../../machines/payout/payout-settings.js';
import { KeptViews } from '../kept-views.js';
import type { MerchantProfile } from './merchant-schemas.js';

/** The profile as the merchant kind keeps it: the MerchantProfile the API answers, whose configuration is always set. */
export type MerchantProfileView = MerchantProfile & { merchantConfig: NonNullable<MerchantProfile['merchantConfig']> };

export interface MerchantAccount {
  merchantId: string;
  environment: Environment;
  apiKeyIpAllowlist: string[];
  apiKeyHash: string;
  twinId: string;
  profile: MerchantProfileView;
  /** When the key was last noted in use (key-usage.ts), to the hour; null before. */
  apiKeyLastUsedAt: string | null;
  /** What a payout is created with; null while the account's payout setup is unfinished. */
  payouts: PayoutSettings | null;
  /** How the hosted checkout looks (docs/branding.md). */
  branding: Branding;
}

type MerchantView = ViewOf<typeof merchantKind>;

/** Accounts kept at most; past it the oldest kept leaves (a merchant's next request reads it again). */
const CAPACITY = 10_000;

export class MerchantAccounts {
  readonly #kept: KeptViews<MerchantAccount>;
  readonly #idByKeyHash = new Map<string, string>();

  constructor(private readonly system: ActorSystem) {
    this.#kept = new KeptViews<MerchantAccount>(system, 'merchant', CAPACITY, (merchantId, account) => {
      if (this.#idByKeyHash.get(account.apiKeyHash) === merchantId) this.#idByKeyHash.delete(account.apiKeyHash);
    });
  }

  async byKeyHash(apiKeyHash: string): Promise<MerchantAccount | null> {
    const kept = await this.#kept.current(this.#idByKeyHash.get(apiKeyHash));
    if (kept?.apiKeyHash === apiKeyHash) return kept;
    return this.#read({ 'view.apiKeyHash': apiKeyHash });
  }

  async byId(merchantId: string): Promise<MerchantAccount | null> {
    return (await this.#kept.current(merchantId)) ?? this.#read({ _id: merchantId });
  }

  async #read(filter: ViewFilter<MerchantView>): Promise<MerchantAccount | null> {
    const read = this.#kept.reading();
    const doc = await this.system.views(merchantKind).findOne(filter, { projection: { view: 1, version: 1 } });
    if (!doc) return null;
    // Kept accounts are shared by every request that reads them: none may change one under the others.
    const found = deepFreeze(account(doc._id, doc.view));
    if (this.#kept.keep(found.merchantId, doc.version, found, read)) this.#idByKeyHash.set(found.apiKeyHash, found.merchantId);
    return found;
  }
}

function account(merchantId: string, view: MerchantView): MerchantAccount {
  return {
    merchantId,
    environment: view.environment,
    apiKeyIpAllowlist: view.profile.apiKeyIpAllowlist,
    apiKeyHash: view.apiKeyHash,
    twinId: view.twinId,
    // Views stored before payouts existed have neither the profile's payouts nor the settings: none set up.
    profile: { ...view.profile, payouts: view.profile.payouts ?? null },
    apiKeyLastUsedAt: view.apiKeyLastUsedAt ?? null,
    payouts: view.payoutSettings ? { ...view.payoutSettings, payoutStepUsdc: BigInt(view.payoutSettings.payoutStepUsdc) } : null,
    // Views stored before branding existed have none: the defaults.
    branding: view.branding ?? brandingOf({}),
  };
}
