/**
 * What creating an order asks of the merchant's account, as pure rules: a live
 * account needs a plan, an order gets dynamic orders (and with them an open amount)
 * only where the account allows them, and only rails the account has enabled. Each
 * rule answers the values the order is made with, or a refusal saying why; the
 * gateway runs them and turns a refusal into its HTTP answer. The destination's rule
 * is in destination.ts, the amount's in order-amount.ts.
 */
import type { Environment, MerchantTier } from '../merchant/index.js';

/** The create request's fields a refusal can name. */
export type CreateField =
  | 'enabledRails'
  | 'destinationChainId'
  | 'destinationAddress'
  | 'destinationToken'
  | 'requestedUsdcAmount'
  | 'requestedFiatAmount'
  | 'requestedFiatCurrency';

export type CreateRefusal =
  | {
      ok: false;
      code: 'TIER_REQUIRED' | 'DYNAMIC_ORDERS_DISABLED' | 'OPEN_AMOUNT_DISABLED' | 'OPEN_AMOUNT_INVALID' | 'DESTINATION_REQUIRED' | 'CURRENCY_NOT_SUPPORTED';
      message: string;
    }
  /** A value of one field the account or the catalog does not allow. */
  | { ok: false; code: 'FIELD_REFUSED'; field: CreateField; message: string };

export type RuleResult<T extends object = object> = ({ ok: true } & T) | CreateRefusal;

/** The account as the rules read it: one environment's profile and settings. */
export interface OrderAccount {
  environment: Environment;
  tier: MerchantTier | null;
  dynamicOrdersEnabled: boolean;
  enabledRails: readonly string[];
  evmWalletAddress: string | null;
  solanaWalletAddress: string | null;
  /** Whether this node bridges live payments (docs/bridges.md): sandbox ones it always does. */
  liveBridges: boolean;
}

export function checkTier(account: OrderAccount): RuleResult {
  if (account.environment === 'LIVE' && account.tier === null) {
    return { ok: false, code: 'TIER_REQUIRED', message: 'Live orders need a plan: this merchant has no tier yet' };
  }
  return { ok: true };
}

/**
 * Whether the order has dynamic orders: as requested, else as the account has them.
 * An order may turn them off but not on against the account; an open amount needs them.
 */
export function resolveDynamicOrders(
  requested: boolean | undefined,
  openAmount: boolean,
  account: OrderAccount,
): RuleResult<{ dynamicOrdersEnabled: boolean }> {
  if (requested === true && !account.dynamicOrdersEnabled) {
    return { ok: false, code: 'DYNAMIC_ORDERS_DISABLED', message: 'Dynamic orders are disabled in the merchant configuration' };
  }
  const dynamicOrdersEnabled = requested ?? account.dynamicOrdersEnabled;
  if (openAmount && !dynamicOrdersEnabled) {
    return { ok: false, code: 'OPEN_AMOUNT_DISABLED', message: 'Open amounts need dynamic orders, which are disabled for this order' };
  }
  return { ok: true, dynamicOrdersEnabled };
}

/** The order's rails, each once: as requested, else every rail the account has enabled. */
export function resolveEnabledRails(requested: readonly string[] | undefined, account: OrderAccount): RuleResult<{ enabledRails: string[] }> {
  const enabledRails = [...new Set(requested ?? account.enabledRails)];
  const disabled = enabledRails.filter((rail) => !account.enabledRails.includes(rail));
  if (disabled.length > 0) return { ok: false, code: 'FIELD_REFUSED', field: 'enabledRails', message: `not enabled for this merchant: ${disabled.join(', ')}` };
  return { ok: true, enabledRails };
}
