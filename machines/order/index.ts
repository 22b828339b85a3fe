/**
 * machines/order: the checkout order of document 1. Its machine, the creation input
 * and context, what creating one asks of the account and where its USDC goes, the
 * settlement rules, and the pure projections to the API's CheckoutOrder and to the
 * hosted read's extra fields.
 */
export type {
  AmountMode,
  CreateOrderEvent,
  FiatAmount,
  FreeForm,
  OrderContext,
  OrderEvent,
  OrderInput,
  OrderPricing,
  OrderStatus,
  RefundPayoutCreation,
  OrderResize,
  OrderBridge,
  Settlement,
} from './order-types.js';
export { orderMachine } from './order-machine.js';
export type { OrderEmitted } from './order-machine.js';
export { applySettlement, coveredAt, coveredWithout, coversOrder, holdsSettlement, settledUsdc, settlementRefusal, withoutSettlement } from './settlement.js';
export type { SettlementRefusal } from './settlement.js';
export { toCheckoutOrder } from './checkout-order.js';
export type {
  CheckoutOrder,
  CheckoutOrderBase,
  CheckoutOrderRefundStatus,
  FixedCheckoutOrder,
  OpenCheckoutOrder,
  OrderChargebackStatus,
} from './checkout-order.js';
export { amountLock, hostedOrderFields } from './hosted-fields.js';
export type { AmountLockReason, HostedOrderFields } from './hosted-fields.js';
export { normaliseOpenAmount } from './open-amount.js';
export { staleAmount } from './amount-conflict.js';
export { endedByResize, resizeCovers, resized, resizeOf, resizeRefusal } from './resize.js';
export type { ResizeRefusal, ResizeRequest } from './resize.js';
export type { OpenAmountConfig, OpenAmountRequest, OpenAmountResult } from './open-amount.js';
export { checkTier, resolveDynamicOrders, resolveEnabledRails } from './create-rules.js';
export type { CreateField, CreateRefusal, OrderAccount, RuleResult } from './create-rules.js';
export { fiatPricedAmount, fixedUsdcAmount, openAmountWithin, pricingCurrency } from './order-amount.js';
export type { FiatPrice, OrderAmount } from './order-amount.js';
export { resolveDestination } from './destination.js';
export type { Destination, DestinationRequest } from './destination.js';
export { activePayment, paymentSelectedRail, replaceable, supersededBy, withPayment } from './order-payments.js';
export type { PaymentSummary } from './order-payments.js';
export { refundOf, refundRefusal, refundViews, refundableUsdc } from './refunds.js';
export type { OrderRefundView } from './refunds.js';
export { chargebackedUsdc, chargebackRefusal, orderChargebackStatus, refundOverlapOf } from './order-chargebacks.js';
export type { ChargebackTrigger } from './order-chargebacks.js';
