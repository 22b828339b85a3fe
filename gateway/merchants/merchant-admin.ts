/**
 * The commands of the admin API: create a merchant with its sandbox twin, change an
 * account's settings, rotate its API key, add an Owner to its dashboard team. Raw keys exist only in these answers.
 */
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { MerchantSettings, MerchantSettingsChanges, MerchantTier, Environment, ReferralSplitConfig } from '../../machines/merchant/index.js';
import type { PayoutSettings } from '../../machines/payout/payout-settings.js';
import { parseUsdc } from '../../machines/money.js';
import { FIAT_RAILS } from '../../machines/rails.js';
import { apiKeyHint, generateApiKey, hashApiKey } from '../auth/api-keys.js';
import { canonicalCidrList } from '../auth/cidr.js';
import { fieldError } from '../envelope.js';
import type { AdminMerchantProfile } from './merchant-schemas.js';
import { newId } from '../ids.js';
import { rotateApiKey } from './api-key-rotation.js';
import { addMember } from '../dashboard/team.js';
import type { MerchantUser } from '../../machines/merchant/index.js';

const DEFAULT_DUST_THRESHOLD_USDC = 500_000n;

export interface CreatedMerchant {
  merchant: AdminMerchantProfile;
  sandboxMerchant: AdminMerchantProfile;
  liveApiKey: string;
  sandboxApiKey: string;
}

export interface SettingsChange {
  tier?: MerchantTier | null;
  evmWalletAddress?: string | null;
  solanaWalletAddress?: string | null;
  defaultPaymentCurrency?: string | null;
  enabledRails?: string[];
  dynamicOrdersEnabled?: boolean;
  completionDustThresholdUsdc?: string;
  feePayer?: MerchantSettings['feePayer'];
  apiKeyIpAllowlist?: string[];
  inPersonCheckoutEnabled?: boolean;
  remediationActionsEnabled?: boolean;
  remediationExtensionsEnabled?: boolean;
  referralSplitConfig?: ReferralSplitConfig | null;
  cryptoReferralSplitConfig?: ReferralSplitConfig | null;
  /** Parsed at the edge (payout-settings-schemas.ts); merged over the stored settings by the account itself. */
  payouts?: Partial<PayoutSettings> | null;
}

export class MerchantAdmin {
  constructor(
    private readonly system: ActorSystem,
    private readonly now: () => string,
  ) {}

  async create(request: { name: string; tier?: MerchantTier; evmWalletAddress?: string; solanaWalletAddress?: string }): Promise<CreatedMerchant> {
    const liveId = newId('mer');
    const sandboxId = newId('mer');
    const settings: MerchantSettings = {
      tier: request.tier ?? null,
      evmWalletAddress: request.evmWalletAddress ?? null,
      solanaWalletAddress: request.solanaWalletAddress ?? null,
      defaultPaymentCurrency: null,
      enabledRails: [...FIAT_RAILS],
      dynamicOrdersEnabled: true,
      completionDustThresholdUsdc: DEFAULT_DUST_THRESHOLD_USDC,
      feePayer: 'MERCHANT',
      apiKeyIpAllowlist: [],
      inPersonCheckoutEnabled: false,
      payouts: null,
    };
    const live = await this.#open(liveId, sandboxId, 'LIVE', request.name, settings);
    const sandbox = await this.#open(sandboxId, liveId, 'SANDBOX', request.name, settings);
    return { merchant: live.profile, sandboxMerchant: sandbox.profile, liveApiKey: live.apiKey, sandboxApiKey: sandbox.apiKey };
  }

  async update(merchantId: string, change: SettingsChange): Promise<AdminMerchantProfile> {
    // Two settings arrive in their edge form and are stored parsed; the rest are stored as sent.
    const { completionDustThresholdUsdc, apiKeyIpAllowlist, payouts, ...plain } = change;
    const changes: MerchantSettingsChanges = Object.fromEntries(Object.entries(plain).filter(([, value]) => value !== undefined));
    if (payouts !== undefined) changes.payouts = payouts && Object.fromEntries(Object.entries(payouts).filter(([, value]) => value !== undefined));
    if (completionDustThresholdUsdc !== undefined) changes.completionDustThresholdUsdc = usdcField('completionDustThresholdUsdc', completionDustThresholdUsdc);
    if (apiKeyIpAllowlist !== undefined) changes.apiKeyIpAllowlist = cidrField(apiKeyIpAllowlist);
    return this.system.ask(merchantKind, merchantId, { type: 'UPDATE_SETTINGS', changes, at: this.now() });
  }

  rotateApiKey(merchantId: string, environment: Environment): Promise<{ merchant: AdminMerchantProfile; apiKey: string }> {
    return rotateApiKey(this.system, merchantId, environment, this.now());
  }

  /** A business's Owner (its first, or another), by the operators: an Owner adds everyone else through the dashboard. */
  async addOwner(merchantId: string, email: string): Promise<MerchantUser> {
    return addMember(this.system, merchantId, email, 'OWNER', this.now());
  }

  async #open(id: string, twinId: string, environment: Environment, name: string, settings: MerchantSettings) {
    const apiKey = generateApiKey(environment);
    const profile = await this.system.ask(merchantKind, id, {
      type: 'CREATE',
      id,
      twinId,
      environment,
      name,
      settings,
      apiKeyHash: hashApiKey(apiKey),
      apiKeyHint: apiKeyHint(apiKey),
      at: this.now(),
    });
    return { profile, apiKey };
  }
}

function usdcField(field: string, text: string): bigint {
  try {
    return parseUsdc(text);
  } catch (error) {
    throw fieldError(field, error instanceof Error ? error.message : String(error));
  }
}

function cidrField(entries: string[]): string[] {
  try {
    return canonicalCidrList(entries);
  } catch (error) {
    throw fieldError('apiKeyIpAllowlist', error instanceof Error ? error.message : String(error));
  }
}
