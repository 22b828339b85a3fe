/**
 * Document 1's requirements of each remediation action, checked in the order its table lists
 * them: the first unmet one is the 422 PAYMENT_NOT_ELIGIBLE `reason`. Where document 1 leaves a
 * rule's edge open, docs/remediation.md says how it is read here:
 * - a rail is "enabled" when it is a fiat rail the order and the merchant's settings both still enable;
 * - recreate also needs no other attempt of the order in progress: a reopened attempt becomes the
 *   order's current one, and would otherwise end the attempt the customer is paying now;
 * - automated release is "available in this environment" when the node reaches an attestation
 *   service; a rail "supports" it when the seller path serves it (Venmo, Cash App, Wise) and the
 *   node has not switched it off; the recipient "offers" it when the maker's deposit did when quoted.
 */
import type { ActionName } from '../../machines/action/index.js';
import { isFiatRail, isSellerReleaseRail, SELLER_RELEASE_RAILS } from '../../machines/rails.js';
import type { OrderView, PaymentView } from '../../actors/kinds/index.js';

export type EligibilityReason =
  | 'RAIL_NOT_SUPPORTED'
  | 'PAYMENT_STATUS_NOT_ELIGIBLE'
  | 'ORDER_STATUS_NOT_ELIGIBLE'
  | 'INTENT_HASH_MISSING'
  | 'EXTEND_TOO_EARLY'
  | 'SAR_DISABLED'
  | 'PAYPAL_NOT_SUPPORTED'
  | 'SAR_RAIL_DISABLED'
  | 'SAR_NOT_AVAILABLE';

export interface Ineligible {
  reason: EligibilityReason;
  message: string;
}

/** Document 1, Limits: an extension is allowed when the expiry is at most 6 hours away. */
export const EXTEND_WINDOW_MS = 6 * 60 * 60 * 1000;

export interface EligibilityFacts {
  actionName: ActionName;
  payment: Pick<PaymentView, 'status' | 'rail' | 'sellerAutomatedRelease' | 'crypto'> & {
    payment: { railIdentifier: string | null; quoteExpiresAt: string; id: string };
  };
  order: Pick<OrderView, 'status'> & { order: { enabledRails: readonly string[] } };
  /** Another attempt of the order in progress, if any. */
  otherActive: string | null;
  /** The rails the merchant's settings enable now. */
  merchantRails: readonly string[];
  /** Whether the node reaches an attestation service's seller path. */
  sellerRelease: boolean;
  /** Rails whose automated release the node has switched off. */
  sellerRailsOff: ReadonlySet<string>;
  now: number;
}

const ENDED = ['EXPIRED', 'CANCELLED', 'FAILED'];

export function ineligibility(facts: EligibilityFacts): Ineligible | null {
  const { payment, order, actionName } = facts;
  const rail = payment.rail;
  const checks: Array<() => Ineligible | null> = [railEnabled];
  if (actionName === 'RECREATE') checks.push(recreateStatus, orderOpen);
  if (actionName === 'EXTEND') checks.push(paymentOpen, intentKnown, extendWindow);
  if (actionName === 'FULFILL_SAR') checks.push(sellerReleaseHere, notPaypal, railReleases, recipientReleases, paymentOpen, intentKnown);
  for (const check of checks) {
    const found = check();
    if (found) return found;
  }
  return null;

  function railEnabled(): Ineligible | null {
    if (payment.crypto || !isFiatRail(rail)) return { reason: 'RAIL_NOT_SUPPORTED', message: `${rail} is not a fiat rail: actions act on fiat attempts only` };
    if (!order.order.enabledRails.includes(rail) || !facts.merchantRails.includes(rail)) {
      return { reason: 'RAIL_NOT_SUPPORTED', message: `${rail} is no longer enabled for this order` };
    }
    return null;
  }
  function recreateStatus(): Ineligible | null {
    if (ENDED.includes(payment.status)) return null;
    return { reason: 'PAYMENT_STATUS_NOT_ELIGIBLE', message: `the payment is ${payment.status}: only an EXPIRED, CANCELLED or FAILED attempt is recreated` };
  }
  function orderOpen(): Ineligible | null {
    if (order.status !== 'CREATED' && order.status !== 'PARTIALLY_FULFILLED') {
      return {
        reason: 'ORDER_STATUS_NOT_ELIGIBLE',
        message: `the order is ${order.status}: only a CREATED or PARTIALLY_FULFILLED order takes a recreated attempt`,
      };
    }
    if (facts.otherActive) {
      return { reason: 'ORDER_STATUS_NOT_ELIGIBLE', message: `the order has attempt ${facts.otherActive} in progress; it must end before another is reopened` };
    }
    return null;
  }
  function paymentOpen(): Ineligible | null {
    if (payment.status === 'CREATED') return null;
    return { reason: 'PAYMENT_STATUS_NOT_ELIGIBLE', message: `the payment is ${payment.status}: only a CREATED attempt takes this action` };
  }
  function intentKnown(): Ineligible | null {
    const hash = payment.payment.railIdentifier;
    if (hash?.startsWith('0x')) return null;
    return { reason: 'INTENT_HASH_MISSING', message: 'the attempt is not registered on chain yet (no railIdentifier)' };
  }
  function extendWindow(): Ineligible | null {
    const left = Date.parse(payment.payment.quoteExpiresAt) - facts.now;
    if (left <= EXTEND_WINDOW_MS) return null;
    return {
      reason: 'EXTEND_TOO_EARLY',
      message: `the attempt expires at ${payment.payment.quoteExpiresAt}, more than 6 hours away: extend it once its expiry is at most 6 hours away`,
    };
  }
  function sellerReleaseHere(): Ineligible | null {
    if (facts.sellerRelease) return null;
    return { reason: 'SAR_DISABLED', message: 'automated release is not available in this environment (no attestation service)' };
  }
  function notPaypal(): Ineligible | null {
    if (rail !== 'paypal') return null;
    return { reason: 'PAYPAL_NOT_SUPPORTED', message: 'PayPal payments cannot be fulfilled from a receipt id' };
  }
  function railReleases(): Ineligible | null {
    if (!isSellerReleaseRail(rail)) {
      return { reason: 'SAR_RAIL_DISABLED', message: `${rail} has no automated release; it is offered on ${SELLER_RELEASE_RAILS.join(', ')}` };
    }
    if (facts.sellerRailsOff.has(rail)) return { reason: 'SAR_RAIL_DISABLED', message: `automated release on ${rail} is switched off` };
    return null;
  }
  function recipientReleases(): Ineligible | null {
    if (payment.sellerAutomatedRelease) return null;
    return { reason: 'SAR_NOT_AVAILABLE', message: 'the recipient of this attempt does not offer automated release' };
  }
}
