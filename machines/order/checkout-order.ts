/**
 * The CheckoutOrder of document 1, exactly as the API returns it and as every order
 * webhook carries it: the same object for the list, the hosted read and the events.
 * Hosted-only fields are not part of it (see hosted-fields.ts).
 */
import { formatUsdc } from '../money.js';
import type { FeePayer, ReferralSplitConfig } from '../merchant/index.js';
import type { OpenAmountConfig } from './open-amount.js';
import type { FreeForm, OrderContext, OrderStatus } from './order-types.js';
import { refundFields, type CheckoutOrderRefundStatus } from './refunds.js';
import { orderChargebackStatus, type OrderChargebackStatus } from './order-chargebacks.js';
import type { PaymentChargebackFact } from '../payment/chargeback-types.js';

export type { CheckoutOrderRefundStatus, OrderChargebackStatus };

export interface CheckoutOrderBase {
  id: string;
  merchantId: string;
  status: OrderStatus;
  chargebackStatus: OrderChargebackStatus;
  chargebacks: PaymentChargebackFact[];
  refundStatus: CheckoutOrderRefundStatus;
  refundAmountUsdc: string | null;
  refundDepositId: string | null;
  refundTransactionHash: string | null;
  refundMetadata: FreeForm | null;
  inPersonCheckout: boolean;
  destinationAddress: string;
  destinationToken: string;
  destinationChainId: string;
  feePayer: FeePayer;
  buyerFeeShareBps: number;
  enabledRails: string[];
  successUrl: string | null;
  cancelUrl: string | null;
  notes: FreeForm | null;
  metadata: FreeForm | null;
  /** The merchant's referral splits when the order was created (machines/merchant/referral-split.ts). */
  referralSplitConfig: ReferralSplitConfig | null;
  cryptoReferralSplitConfig: ReferralSplitConfig | null;
  cancelledAt: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string | null;
}

export interface FixedCheckoutOrder extends CheckoutOrderBase {
  amountMode: 'FIXED';
  requestedUsdcAmount: string;
  remainingUsdcAmount: string;
}

export interface OpenCheckoutOrder extends CheckoutOrderBase {
  amountMode: 'OPEN';
  requestedUsdcAmount: string | null;
  remainingUsdcAmount: string | null;
  openAmount: OpenAmountConfig;
  amountVersion: number;
}

export type CheckoutOrder = FixedCheckoutOrder | OpenCheckoutOrder;

export function toCheckoutOrder(context: OrderContext, status: OrderStatus): CheckoutOrder {
  const base: CheckoutOrderBase = {
    id: context.id,
    merchantId: context.merchantId,
    status,
    // Chargebacks are additive facts beside status (docs/chargebacks.md).
    chargebackStatus: orderChargebackStatus(context),
    chargebacks: context.chargebacks ?? [],
    // Refunds are facts beside status too (docs/refunds.md).
    ...refundFields(context.refunds),
    inPersonCheckout: context.inPersonCheckout,
    destinationAddress: context.destinationAddress,
    destinationToken: context.destinationToken,
    destinationChainId: context.destinationChainId,
    feePayer: context.feePayer,
    buyerFeeShareBps: context.buyerFeeShareBps,
    enabledRails: context.enabledRails,
    successUrl: context.successUrl,
    cancelUrl: context.cancelUrl,
    notes: context.notes,
    metadata: context.metadata,
    referralSplitConfig: context.referralSplitConfig ?? null,
    cryptoReferralSplitConfig: context.cryptoReferralSplitConfig ?? null,
    cancelledAt: context.cancelledAt,
    completedAt: context.completedAt,
    createdAt: context.createdAt,
    updatedAt: context.updatedAt,
  };
  if (context.amountMode === 'OPEN') {
    if (context.openAmount === null) throw new Error(`OPEN order ${context.id} has no openAmount`);
    return {
      ...base,
      amountMode: 'OPEN',
      requestedUsdcAmount: usdcOrNull(context.requestedUsdcAmount),
      remainingUsdcAmount: usdcOrNull(context.remainingUsdcAmount),
      openAmount: context.openAmount,
      amountVersion: context.amountVersion,
    };
  }
  if (context.requestedUsdcAmount === null || context.remainingUsdcAmount === null) {
    throw new Error(`FIXED order ${context.id} has no amount`);
  }
  return {
    ...base,
    amountMode: 'FIXED',
    requestedUsdcAmount: formatUsdc(context.requestedUsdcAmount),
    remainingUsdcAmount: formatUsdc(context.remainingUsdcAmount),
  };
}

function usdcOrNull(units: bigint | null): string | null {
  return units === null ? null : formatUsdc(units);
}
