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
import { checkoutTheme } from '../merchants/branding-schemas.js';
import { z } from 'zod';
import { referralSplitConfig } from '../merchants/referral-split-schema.js';
import { currencyCode, environment, feePayer, pageFields } from '../schemas/common.js';
import { checkoutPayment, paymentChargebackFact } from '../payments/payment-resources.js';
import { orderBridgeInfo } from './bridge-resources.js';

const nullableString = z.string().nullable();
const freeForm = z.record(z.string(), z.unknown());

export const orderStatus = z.enum(['CREATED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED']);
export const orderChargebackStatus = z.enum(['NONE', 'PARTIALLY_CHARGEBACKED', 'CHARGEBACKED']);

const openAmountConfig = z
  .object({
    currency: currencyCode.meta({ description: 'The ISO currency the customer types the amount in, upper case' }),
    minAmount: nullableString.meta({ description: 'The smallest amount the customer may enter, two decimals; null for no minimum' }),
    maxAmount: nullableString.meta({ description: 'The largest amount the customer may enter, two decimals; null for no maximum but the node’s order limit' }),
    presets: z.array(z.string()).meta({ description: 'Suggested amounts shown as buttons, two decimals, ascending; empty for none' }),
  })
  .meta({ id: 'OpenAmountConfig', description: 'What the customer may pay on an open-amount order, as the merchant set it (stored normalised)' });

const fiatAmount = z
  .object({
    amount: z.string().meta({ description: 'A decimal string with the currency’s two decimals' }),
    currency: currencyCode.meta({ description: 'ISO 4217 currency code' }),
  })
  .meta({ id: 'FiatAmount', description: 'An amount of fiat' });

const checkoutOrderBase = {
  id: z.string().meta({ description: 'The order id (ord_…); random and unguessable, it is the credential of the hosted read' }),
  merchantId: z.string().meta({ description: 'The merchant account (mer_…) the order belongs to: the live or the sandbox one' }),
  status: orderStatus.meta({
    description:
      'How much of the order’s value has settled: CREATED (nothing yet), PARTIALLY_FULFILLED (some), FULFILLED (all, or all but dust), CANCELLED. An order never expires on its own',
  }),
  chargebackStatus: orderChargebackStatus.meta({ description: 'Whether payments of the order were charged back; additive, it never changes status' }),
  chargebacks: z.array(paymentChargebackFact).meta({ description: 'The chargebacks of its payments, in the order they arrived; empty while none' }),
  refundStatus: z.enum(['NONE', 'PENDING', 'COMPLETED']).meta({
    description:
      'PENDING while a refund’s payout awaits your funding, COMPLETED once a refund was funded and none is pending, NONE otherwise (docs/refunds.md); never changes status',
  }),
  refundAmountUsdc: nullableString.meta({
    description:
      'USDC refunded or being refunded, in all: what reached the customer for completed refunds, what was asked for pending ones; null with no refund that counts',
  }),
  refundDepositId: nullableString.meta({
    description: 'The payout paying the current refund (the newest pending or completed one): read it with GET /api/v1/payouts/{id}; null without one',
  }),
  refundTransactionHash: nullableString.meta({
    description: 'The Base transaction that delivered the current refund’s USDC to the customer’s wallet; null until it is funded',
  }),
  refundMetadata: freeForm.nullable().meta({ description: 'The metadata you sent with the current refund; null without one' }),
  inPersonCheckout: z.boolean().meta({ description: 'An order for in-person checkout: the merchant’s inPersonCheckoutEnabled when the order was created' }),
  destinationAddress: z
    .string()
    .meta({ description: 'Where the USDC is delivered: the address the create named, or the merchant’s wallet of the chain’s kind' }),
  destinationToken: z.string().meta({ description: 'The token delivered, by its address on the destination chain' }),
  destinationChainId: z.string().meta({ description: 'A decimal string, as document 1 writes chain ids' }),
  feePayer: feePayer.meta({
    description:
      'Who bears the fees: MERCHANT (the customer pays the price, the merchant receives it less fees), PAYEE (the customer pays the price plus fees, the merchant receives the price) or SPLIT (shared by buyerFeeShareBps)',
  }),
  buyerFeeShareBps: z.number().int().meta({ description: 'With feePayer SPLIT: the customer’s share of the fees, in basis points (0 to 10000)' }),
  enabledRails: z.array(z.string()).meta({ description: 'The rails the customer may pay on (venmo, zelle, …, relay_<chainId> for crypto)' }),
  successUrl: nullableString.meta({ description: 'Where the checkout page sends the customer once the order is paid; null to stay on the page' }),
  cancelUrl: nullableString.meta({ description: 'The way back to the shop the checkout page offers; null for none' }),
  notes: freeForm.nullable().meta({ description: 'The free-form object the merchant sent' }),
  metadata: freeForm.nullable().meta({ description: 'Set by Peer, never by the merchant; null for orders created through the API' }),
  referralSplitConfig: referralSplitConfig.nullable().meta({
    description:
      'How the platform’s fee on this order’s fiat-rail payments is shared with referral partners: the merchant’s when the order was created; null for none',
  }),
  cryptoReferralSplitConfig: referralSplitConfig.nullable().meta({ description: 'The same for crypto-rail payments; null for none' }),
  cancelledAt: nullableString.meta({ description: 'When the order was cancelled (ISO 8601); null unless CANCELLED' }),
  completedAt: nullableString.meta({ description: 'When the order was fulfilled (ISO 8601); null until FULFILLED' }),
  createdAt: z.string().meta({ description: 'When the order was created (ISO 8601)' }),
  updatedAt: nullableString.meta({ description: 'When the order last changed (ISO 8601); null if it never did' }),
};

const fixedFields = {
  amountMode: z.literal('FIXED').meta({ description: 'FIXED: the merchant set the amount, in USDC or as a fiat price' }),
  requestedUsdcAmount: z.string().meta({ description: 'The USDC the order asks for (a fiat price converted at creation), a decimal string' }),
  remainingUsdcAmount: z.string().meta({ description: 'The USDC still owed, a decimal string; 0 once FULFILLED' }),
};
const openFields = {
  amountMode: z.literal('OPEN').meta({ description: 'OPEN: the customer types the amount at checkout, within openAmount' }),
  requestedUsdcAmount: nullableString.meta({ description: 'The USDC the saved amount converts to; null until the customer saves an amount' }),
  remainingUsdcAmount: nullableString.meta({ description: 'The USDC still owed; null until the customer saves an amount' }),
  openAmount: openAmountConfig,
  amountVersion: z.number().int().meta({ description: '0 until the customer first saves an amount, then one more per save' }),
};

export const checkoutOrder = z
  .discriminatedUnion('amountMode', [z.object({ ...checkoutOrderBase, ...fixedFields }), z.object({ ...checkoutOrderBase, ...openFields })])
  .meta({ id: 'CheckoutOrder', description: 'An order, FIXED or OPEN (amountMode); the same object in every answer and webhook' });

export const createOrderResult = z
  .union([
    z.object({ order: checkoutOrder, orderToken: z.string().meta({ description: 'The customer’s credential for this order; shown once' }) }),
    z.object({
      order: checkoutOrder,
      orderToken: z.null().meta({ description: 'Null on a replay: the token was shown once, to the first create' }),
      idempotentReplay: z.literal(true).meta({ description: 'This answer replays the order an earlier create with the same idempotencyKey made' }),
    }),
  ])
  .meta({ id: 'CreateOrderResult' });

const listRowFields = {
  hasActivePayment: z.boolean().meta({ description: 'An attempt is in progress' }),
  hasExpiredPayment: z.boolean().meta({ description: 'At least one attempt expired' }),
  paymentSelectedRail: nullableString.meta({ description: 'The rail of the attempt in progress, else of the newest expired one; null when neither exists' }),
};

export const merchantOrderRow = z
  .discriminatedUnion('amountMode', [
    z.object({ ...checkoutOrderBase, ...fixedFields, ...listRowFields }),
    z.object({ ...checkoutOrderBase, ...openFields, ...listRowFields }),
  ])
  .meta({ id: 'MerchantOrderRow', description: 'A CheckoutOrder with the state of its payments' });

export const merchantOrderList = z
  .object({
    orders: z.array(merchantOrderRow).meta({ description: 'This page of orders, newest first' }),
    ...pageFields('orders'),
  })
  .meta({ id: 'MerchantOrderList' });

const hostedFields = {
  requestedFiat: fiatAmount.nullable().meta({ description: 'The fiat price, while it still describes what is owed' }),
  bridgeInfo: orderBridgeInfo
    .nullable()
    .meta({ description: 'The bridge of the current payment, once it settled, for an order delivered on another chain than Base; null otherwise' }),
  applePayChargeUsdcAmount: nullableString.meta({
    description: 'The fee-grossed charge for the remaining balance by Apple Pay; null where that method is off or cannot be priced',
  }),
};

const hostedOpenAmount = openAmountConfig
  .extend({
    effectiveMin: nullableString.meta({ description: 'The smallest amount the customer may enter now; null once the amount is locked or no rate prices it' }),
    effectiveMax: nullableString.meta({ description: 'The largest amount the customer may enter now; null once the amount is locked or no rate prices it' }),
    savedInput: fiatAmount.nullable().meta({ description: 'The amount the customer saved, in the currency they typed it' }),
  })
  .meta({
    id: 'HostedOpenAmount',
    description: 'The open amount as the checkout page shows it: the merchant’s bounds, what the customer may enter now, and what they saved',
  });

export const checkoutMerchant = z
  .object({
    id: z.string().meta({ description: 'The merchant account id (mer_…)' }),
    name: z.string().meta({ description: 'The shop’s name, shown to the customer' }),
    logoUrl: nullableString.meta({ description: 'The shop’s logo; null for none' }),
    environment: environment.meta({ description: 'LIVE, or SANDBOX where no money moves' }),
    disableBranding: z.boolean().meta({ description: 'Hide Peer’s branding on the checkout page' }),
    checkoutTheme: checkoutTheme
      .nullable()
      .meta({ description: 'The checkout page theme the merchant set (accent colour and mode); null for Peer’s default look' }),
    defaultPaymentCurrency: nullableString.meta({ description: 'The currency a fiat price is in when the create names none; null for none' }),
    verified: z.boolean().meta({ description: 'The merchant is verified by Peer' }),
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
          amountLock: z
            .enum(['PAYMENT_IN_PROGRESS', 'PAYMENT_MAY_SETTLE', 'PAID'])
            .nullable()
            .meta({ description: 'Why the amount can no longer change; null while it can' }),
        }),
      ])
      .meta({
        id: 'HostedCheckoutOrder',
        description: 'The order as the checkout page shows it: a CheckoutOrder with its fiat price and, when OPEN, the amount the customer may enter now',
      }),
    merchant: checkoutMerchant.nullable().meta({ description: 'Null when the merchant account no longer exists' }),
    currentPayment: checkoutPayment
      .nullable()
      .meta({ description: 'The newest payment attempt, with errorCode and errorMessage; null when the customer never picked a rail' }),
  })
  .meta({ id: 'HostedOrder' });
