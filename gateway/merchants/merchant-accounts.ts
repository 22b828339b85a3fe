/**
 * Merchant accounts as the gateway reads them: from the merchant actors' views,
 * never by waking an actor. Looked up by API key hash (a unique index) or by id.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { Environment } from '../../machines/merchant/index.js';

export interface MerchantProfileView {
  id: string;
  name: string;
  logoUrl: string | null;
  environment: Environment;
  tier: 'BASE' | 'PRO' | 'CONCIERGE' | null;
  evmWalletAddress: string | null;
  inPersonCheckoutEnabled: boolean;
  apiKeyIpAllowlist: string[];
  merchantConfig: {
    defaultPaymentCurrency: string | null;
    enabledRails: string[];
    dynamicOrdersEnabled: boolean;
    completionDustThresholdUsdc: string;
    feePayer: 'MERCHANT' | 'PAYEE' | 'SPLIT';
  };
  [field: string]: unknown;
}

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

export class MerchantAccounts {
  constructor(private readonly system: ActorSystem) {}

  async byKeyHash(apiKeyHash: string): Promise<MerchantAccount | null> {
    const doc = await this.system.documents('merchant').findOne({ 'view.apiKeyHash': apiKeyHash }, { projection: { view: 1 } });
    return doc ? account(doc._id, doc.view as unknown as MerchantView) : null;
  }

  async byId(merchantId: string): Promise<MerchantAccount | null> {
    const doc = await this.system.documents('merchant').findOne({ _id: merchantId }, { projection: { view: 1 } });
    return doc ? account(doc._id, doc.view as unknown as MerchantView) : null;
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
