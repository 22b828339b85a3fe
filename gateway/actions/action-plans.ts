/**
 * Which remediation actions each plan allows, and which wait for Peer-side approval
 * (document 1: "depending on the plan an action may wait for approval"). docs/remediation.md
 * has the same table for merchants.
 *
 * | Plan          | RECREATE           | EXTEND             | FULFILL_SAR        |
 * |---------------|--------------------|--------------------|--------------------|
 * | none selected | denied             | denied             | denied             |
 * | BASE          | waits for approval | waits for approval | waits for approval |
 * | PRO           | runs at once       | runs at once       | runs at once       |
 * | CONCIERGE     | runs at once       | runs at once       | runs at once       |
 *
 * A BASE merchant's actions wait because each one commits a maker's liquidity again (a new
 * intent, a longer lock, a release on the merchant's word) without the review PRO and
 * CONCIERGE accounts had at onboarding. An account without a plan takes no live orders, so it
 * has no attempts worth acting on.
 */
import type { ActionName } from '../../machines/action/index.js';
import type { MerchantTier } from '../../machines/merchant/index.js';

export type PlanRule = 'DENIED' | 'APPROVAL' | 'AT_ONCE';

const PLANS: Readonly<Record<MerchantTier | 'NONE', Readonly<Record<ActionName, PlanRule>>>> = {
  NONE: { RECREATE: 'DENIED', EXTEND: 'DENIED', FULFILL_SAR: 'DENIED' },
  BASE: { RECREATE: 'APPROVAL', EXTEND: 'APPROVAL', FULFILL_SAR: 'APPROVAL' },
  PRO: { RECREATE: 'AT_ONCE', EXTEND: 'AT_ONCE', FULFILL_SAR: 'AT_ONCE' },
  CONCIERGE: { RECREATE: 'AT_ONCE', EXTEND: 'AT_ONCE', FULFILL_SAR: 'AT_ONCE' },
};

export function planRule(tier: MerchantTier | null, actionName: ActionName): PlanRule {
  return PLANS[tier ?? 'NONE'][actionName];
}
