/**
 * What the order endpoints take: the create body, the list query and the order path,
 * validated here and documented from the same schemas (the resources they answer are
 * in order-resources.ts).
 */
import { z } from 'zod';
import { testClockId } from '../test-clocks/test-clock-schemas.js';
import { decimalString, feePayer, orderId, pageQuery } from '../schemas/common.js';
import { destinationAddress, destinationChainId, destinationToken } from '../schemas/destination.js';
import { orderChargebackStatus, orderStatus } from './order-resources.js';
import { freeFormObject } from '../schemas/free-form.js';

const usdcAmount = decimalString.meta({ description: 'USDC as a decimal string, at most 6 decimals, above zero', example: '25' });

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
        minAmount: z.string().optional().meta({ description: 'The smallest amount the customer may enter, at most 2 decimals; no minimum when absent' }),
        maxAmount: z
          .string()
          .optional()
          .meta({ description: 'The largest amount the customer may enter, at most 2 decimals; the node’s order limit when absent' }),
        presets: z.array(z.string()).optional().meta({ description: '1 to 6 suggested amounts, shown as buttons, within the bounds' }),
      })
      .optional()
      .meta({
        description: 'An open amount: the customer types what to pay at checkout, within these bounds (the merchant’s configuration must allow dynamic orders)',
      }),
    idempotencyKey: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8 to 128 letters, digits, underscores or hyphens')
      .optional()
      .meta({
        description:
          'Makes a retried create safe: the same key and body answer the first order again (200, orderToken null); the same key with another body is a 422',
      }),
    destinationAddress: destinationAddress.optional(),
    destinationToken: destinationToken.optional(),
    destinationChainId: destinationChainId.optional(),
    feePayer: feePayer.optional().meta({ description: 'Who bears the fees (MERCHANT, PAYEE or SPLIT); the merchant configuration’s when absent' }),
    buyerFeeShareBps: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .optional()
      .meta({ description: 'With feePayer SPLIT: the customer’s share of the fees, in basis points (0 to 10000)' }),
    dynamicOrdersEnabled: z.boolean().optional().meta({
      description:
        'false disables dynamic orders (open amounts, resizing) for this order; absent inherits the merchant’s setting; true while the merchant disables them is a 400',
    }),
    enabledRails: z
      .array(z.string().min(1).max(32))
      .min(1)
      .max(32)
      .optional()
      .meta({ description: 'The rails the customer may pay on; the merchant’s enabled rails when absent' }),
    successUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .optional()
      .meta({ description: 'http(s) address the checkout page sends the customer to once paid' }),
    cancelUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .optional()
      .meta({ description: 'http(s) address of the way back to the shop the checkout page offers' }),
    notes: freeFormObject.nullable().optional().meta({ description: 'Your own JSON object (a cart id, a SKU), given back on the order and in webhooks' }),
    testClockId: testClockId.optional().meta({ description: 'Sandbox only: the test clock the order and its payments run on (docs/test-clocks.md)' }),
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
        message:
          'send exactly one amount mode: requestedUsdcAmount, requestedFiatAmount (with requestedFiatCurrency or the merchant’s default currency), or openAmount',
      });
    }
    // Without a currency, the merchant's defaultPaymentCurrency prices the order (document 1, versioning item 3).
    if (body.requestedFiatCurrency !== undefined && body.requestedFiatAmount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['requestedFiatAmount'], message: 'requestedFiatCurrency needs requestedFiatAmount' });
    }
  })
  .meta({ id: 'CreateOrderRequest', example: { requestedUsdcAmount: '25', notes: { sku: 'A1' }, successUrl: 'https://shop.example/thanks' } });

export type CreateOrderBody = z.infer<typeof createOrderBody>;

export const orderPath = z.strictObject({ orderId });

export const listOrdersQuery = z.strictObject({
  orderId: z.string().max(128).optional().meta({ description: 'Part of an order id, any letter case; ignored when search is set' }),
  status: orderStatus.optional().meta({ description: 'Only orders in this status; ignored when displayStatus is set' }),
  displayStatus: z.enum(['ACTIVE', 'EXPIRED', 'CREATED']).optional().meta({
    description:
      'CREATED orders by their attempts: ACTIVE (one in progress), EXPIRED (one expired, none in progress) or CREATED (none in progress, none expired)',
  }),
  chargebackStatus: orderChargebackStatus.optional().meta({ description: 'Only orders with this chargeback status' }),
  search: z
    .string()
    .max(256)
    .optional()
    .meta({ description: 'Words in the order id, notes or metadata, any letter case; shorter than 3 characters is ignored' }),
  ...pageQuery,
});
