/**
 * The order endpoints' zod schemas: the create body, the list query, and the
 * resources they answer (CheckoutOrder, HostedOrder, MerchantOrderList), from which
 * the OpenAPI document is generated too.
 */
import { z } from 'zod';
import { currencyCode, decimalString, environment, evmAddress, feePayer, orderId } from './common.js';
import { freeFormObject } from './free-form.js';

const usdcAmount = decimalString.meta({ description: 'USDC as a decimal string, at most 6 decimals, above zero', example: '25' });
const nullableString = z.string().nullable();

export const createOrderBody = z
  .strictObject({
    requestedUsdcAmount: usdcAmount.optional(),
    requestedFiatAmount: decimalString.meta({ description: 'Fiat price, at most 2 decimals', example: '19.99' }).optional(),
    requestedFiatCurrency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code')
      .meta({ description: "Defaults to the merchant's defaultPaymentCurrency; required when the merchant has none" })
      .optional(),
    openAmount: z
      .strictObject({
        currency: z.string().meta({ description: 'ISO currency of minAmount, maxAmount and presets' }),
        minAmount: z.string().optional(),
        maxAmount: z.string().optional(),
        presets: z.array(z.string()).optional(),
      })
      .optional(),
    idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8 to 128 letters, digits, underscores or hyphens').optional(),
    destinationAddress: evmAddress.optional(),
    destinationToken: z.string().min(1).max(64).meta({ description: 'Alias (USDC) or token address' }).optional(),
    destinationChainId: z.number().int().positive().optional(),
    feePayer: feePayer.optional(),
    buyerFeeShareBps: z.number().int().min(0).max(10_000).optional(),
    dynamicOrdersEnabled: z.boolean().optional(),
    enabledRails: z.array(z.string().min(1).max(32)).min(1).max(32).optional(),
    successUrl: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
    cancelUrl: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
    notes: freeFormObject.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    const modes = [
      body.requestedUsdcAmount !== undefined,
      body.requestedFiatAmount !== undefined || body.requestedFiatCurrency !== undefined,
      body.openAmount !== undefined,
    ].filter(Boolean).length;
    if (modes !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: 'send exactly one amount mode: requestedUsdcAmount, requestedFiatAmount (with requestedFiatCurrency or the merchant’s default currency), or openAmount',
      });
    }
    // Without a currency, the merchant's defaultPaymentCurrency prices the order (document 1, versioning item 3).
    if (body.requestedFiatCurrency !== undefined && body.requestedFiatAmount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['requestedFiatAmount'], message: 'requestedFiatCurrency needs requestedFiatAmount' });
    }
  })
  .meta({ id: 'CreateOrderRequest', example: { requestedUsdcAmount: '25', notes: { sku: 'A1' }, successUrl: 'https://shop.example/thanks' } });

export type CreateOrderBody = z.infer<typeof createOrderBody>;

const openAmountConfig = z.object({
  currency: z.string(),
  minAmount: nullableString,
  maxAmount: nullableString,
  presets: z.array(z.string()),
});

const checkoutOrderBase = {
  id: z.string(),
  merchantId: z.string(),
  status: z.enum(['CREATED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED']),
  chargebackStatus: z.enum(['NONE', 'PARTIALLY_CHARGEBACKED', 'CHARGEBACKED']),
  chargebacks: z.array(z.unknown()),
  refundStatus: z.enum(['NONE', 'PENDING', 'COMPLETED']),
  refundAmountUsdc: nullableString,
  refundDepositId: nullableString,
  refundTransactionHash: nullableString,
  refundMetadata: z.unknown().nullable(),
  inPersonCheckout: z.boolean(),
  destinationAddress: z.string(),
  destinationToken: z.string(),
  destinationChainId: z.string(),
  feePayer,
  buyerFeeShareBps: z.number(),
  enabledRails: z.array(z.string()),
  successUrl: nullableString,
  cancelUrl: nullableString,
  notes: z.unknown().nullable(),
  metadata: z.unknown().nullable(),
  referralSplitConfig: z.unknown().nullable(),
  cryptoReferralSplitConfig: z.unknown().nullable(),
  cancelledAt: nullableString,
  completedAt: nullableString,
  createdAt: z.string(),
  updatedAt: nullableString,
};

export const checkoutOrder = z
  .discriminatedUnion('amountMode', [
    z.object({ ...checkoutOrderBase, amountMode: z.literal('FIXED'), requestedUsdcAmount: z.string(), remainingUsdcAmount: z.string() }),
    z.object({
      ...checkoutOrderBase,
      amountMode: z.literal('OPEN'),
      requestedUsdcAmount: nullableString,
      remainingUsdcAmount: nullableString,
      openAmount: openAmountConfig,
      amountVersion: z.number(),
    }),
  ])
  .meta({ id: 'CheckoutOrder' });

export const createOrderResponse = z
  .union([
    z.object({ order: checkoutOrder, orderToken: z.string() }),
    z.object({ order: checkoutOrder, orderToken: z.null(), idempotentReplay: z.literal(true) }),
  ])
  .meta({ id: 'CreateOrderResult' });

export const orderPath = z.strictObject({ orderId });

export const listOrdersQuery = z.strictObject({
  orderId: z.string().max(128).optional(),
  status: z.enum(['CREATED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED']).optional(),
  displayStatus: z.enum(['ACTIVE', 'EXPIRED', 'CREATED']).optional(),
  chargebackStatus: z.enum(['NONE', 'PARTIALLY_CHARGEBACKED', 'CHARGEBACKED']).optional(),
  search: z.string().max(256).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(20),
});

export const merchantOrderList = z
  .object({
    orders: z.array(
      z.intersection(
        checkoutOrder,
        z.object({ hasActivePayment: z.boolean(), hasExpiredPayment: z.boolean(), paymentSelectedRail: nullableString }),
      ),
    ),
    total: z.number(),
    page: z.number(),
    limit: z.number(),
  })
  .meta({ id: 'MerchantOrderList' });

export const checkoutMerchant = z
  .object({
    id: z.string(),
    name: z.string(),
    logoUrl: nullableString,
    environment,
    disableBranding: z.boolean(),
    checkoutTheme: z.unknown().nullable(),
    defaultPaymentCurrency: nullableString,
    verified: z.boolean(),
  })
  .meta({ id: 'CheckoutMerchant' });

export const hostedOrder = z
  .object({
    order: z.intersection(
      checkoutOrder,
      z.object({
        requestedFiat: z.object({ amount: z.string(), currency: currencyCode }).nullable(),
        bridgeInfo: z.unknown().nullable(),
        applePayChargeUsdcAmount: nullableString,
        amountLock: z.enum(['PAYMENT_IN_PROGRESS', 'PAYMENT_MAY_SETTLE', 'PAID']).nullable().optional(),
      }),
    ),
    merchant: checkoutMerchant,
    currentPayment: z.unknown().nullable(),
  })
  .meta({ id: 'HostedOrder' });
