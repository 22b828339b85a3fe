/**
 * The resources the order endpoints answer (CheckoutOrder, the create result, a list
 * row, HostedOrder), as zod schemas. Routes build every answer through them and the
 * OpenAPI document is generated from them, so what is documented is what is sent.
 *
 * Each variant of an order is one closed object: the FIXED and OPEN orders are a
 * union discriminated on `amountMode`, and a list row or a hosted order extends each
 * variant with its own fields rather than intersecting two closed objects (which no
 * value can satisfy).
 */
import { z } from 'zod';
import { currencyCode, environment, feePayer } from './common.js';
import { checkoutPayment } from './payment-resources.js';

const nullableString = z.string().nullable();
const freeForm = z.record(z.string(), z.unknown());
/** A field whose shape the documents do not show yet: null until the issue that fills it. */
const notYetShown = (what: string) => freeForm.nullable().meta({ description: `${what}; its shape is not shown by the documents, and it is null for now` });

export const orderStatus = z.enum(['CREATED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED']);
export const orderChargebackStatus = z.enum(['NONE', 'PARTIALLY_CHARGEBACKED', 'CHARGEBACKED']);

const openAmountConfig = z
  .object({
    currency: currencyCode,
    minAmount: nullableString,
    maxAmount: nullableString,
    presets: z.array(z.string()),
  })
  .meta({ id: 'OpenAmountConfig' });

const fiatAmount = z.object({ amount: z.string(), currency: currencyCode }).meta({ id: 'FiatAmount' });

const checkoutOrderBase = {
  id: z.string(),
  merchantId: z.string(),
  status: orderStatus,
  chargebackStatus: orderChargebackStatus,
  chargebacks: z.array(freeForm).meta({ description: 'PaymentChargebackFact[]; empty until chargebacks exist' }),
  refundStatus: z.enum(['NONE', 'PENDING', 'COMPLETED']),
  refundAmountUsdc: nullableString,
  refundDepositId: nullableString,
  refundTransactionHash: nullableString,
  refundMetadata: notYetShown('Refund details'),
  inPersonCheckout: z.boolean(),
  destinationAddress: z.string(),
  destinationToken: z.string(),
  destinationChainId: z.string().meta({ description: 'A decimal string, as document 1 writes chain ids' }),
  feePayer,
  buyerFeeShareBps: z.number().int(),
  enabledRails: z.array(z.string()),
  successUrl: nullableString,
  cancelUrl: nullableString,
  notes: freeForm.nullable().meta({ description: 'The free-form object the merchant sent' }),
  metadata: freeForm.nullable().meta({ description: 'Set by Peer, never by the merchant; null for orders created through the API' }),
  referralSplitConfig: notYetShown('ReferralSplitConfig'),
  cryptoReferralSplitConfig: notYetShown('ReferralSplitConfig of crypto rails'),
  cancelledAt: nullableString,
  completedAt: nullableString,
  createdAt: z.string(),
  updatedAt: nullableString,
};

const fixedFields = { amountMode: z.literal('FIXED'), requestedUsdcAmount: z.string(), remainingUsdcAmount: z.string() };
const openFields = {
  amountMode: z.literal('OPEN'),
  requestedUsdcAmount: nullableString.meta({ description: 'Null until the customer saves an amount' }),
  remainingUsdcAmount: nullableString,
  openAmount: openAmountConfig,
  amountVersion: z.number().int(),
};

export const checkoutOrder = z
  .discriminatedUnion('amountMode', [z.object({ ...checkoutOrderBase, ...fixedFields }), z.object({ ...checkoutOrderBase, ...openFields })])
  .meta({ id: 'CheckoutOrder', description: 'An order, FIXED or OPEN (amountMode); the same object in every answer and webhook' });

export const createOrderResult = z
  .union([
    z.object({ order: checkoutOrder, orderToken: z.string().meta({ description: 'The customer’s credential for this order; shown once' }) }),
    z.object({ order: checkoutOrder, orderToken: z.null(), idempotentReplay: z.literal(true) }),
  ])
  .meta({ id: 'CreateOrderResult' });

const listRowFields = { hasActivePayment: z.boolean(), hasExpiredPayment: z.boolean(), paymentSelectedRail: nullableString };

export const merchantOrderRow = z
  .discriminatedUnion('amountMode', [
    z.object({ ...checkoutOrderBase, ...fixedFields, ...listRowFields }),
    z.object({ ...checkoutOrderBase, ...openFields, ...listRowFields }),
  ])
  .meta({ id: 'MerchantOrderRow', description: 'A CheckoutOrder with the state of its payments' });

export const merchantOrderList = z
  .object({ orders: z.array(merchantOrderRow), total: z.number().int(), page: z.number().int(), limit: z.number().int() })
  .meta({ id: 'MerchantOrderList' });

const hostedFields = {
  requestedFiat: fiatAmount.nullable().meta({ description: 'The fiat price, while it still describes what is owed' }),
  bridgeInfo: notYetShown('OrderBridgeInfo of the current payment'),
  applePayChargeUsdcAmount: nullableString,
};

const hostedOpenAmount = openAmountConfig
  .extend({
    effectiveMin: nullableString.meta({ description: 'The smallest amount the customer may enter now; null once the amount is locked or no rate prices it' }),
    effectiveMax: nullableString.meta({ description: 'The largest amount the customer may enter now; null once the amount is locked or no rate prices it' }),
    savedInput: fiatAmount.nullable().meta({ description: 'The amount the customer saved, in the currency they typed it' }),
  })
  .meta({ id: 'HostedOpenAmount' });

export const checkoutMerchant = z
  .object({
    id: z.string(),
    name: z.string(),
    logoUrl: nullableString,
    environment,
    disableBranding: z.boolean(),
    checkoutTheme: notYetShown('The checkout page theme'),
    defaultPaymentCurrency: nullableString,
    verified: z.boolean(),
  })
  .meta({ id: 'CheckoutMerchant' });

export const hostedOrder = z
  .object({
    order: z
      .discriminatedUnion('amountMode', [
        z.object({ ...checkoutOrderBase, ...fixedFields, ...hostedFields }),
        z.object({
          ...checkoutOrderBase,
          ...openFields,
          ...hostedFields,
          openAmount: hostedOpenAmount,
          amountLock: z.enum(['PAYMENT_IN_PROGRESS', 'PAYMENT_MAY_SETTLE', 'PAID']).nullable().meta({ description: 'Why the amount can no longer change; null while it can' }),
        }),
      ])
      .meta({ id: 'HostedCheckoutOrder' }),
    merchant: checkoutMerchant.nullable().meta({ description: 'Null when the merchant account no longer exists' }),
    currentPayment: checkoutPayment.nullable().meta({ description: 'The newest payment attempt, with errorCode and errorMessage; null when the customer never picked a rail' }),
  })
  .meta({ id: 'HostedOrder' });
