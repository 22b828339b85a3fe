/**
 * What the order endpoints take: the create body, the list query and the order path,
 * validated here and documented from the same schemas (the resources they answer are
 * in order-resources.ts).
 */
import { z } from 'zod';
import { testClockId } from './test-clock-schemas.js';
import { decimalString, feePayer, orderId, pageQuery } from './common.js';
import { destinationAddress, destinationChainId, destinationToken } from './destination.js';
import { orderChargebackStatus, orderStatus } from './order-resources.js';
import { freeFormObject } from './free-form.js';

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
        minAmount: z.string().optional(),
        maxAmount: z.string().optional(),
        presets: z.array(z.string()).optional(),
      })
      .optional(),
    idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8 to 128 letters, digits, underscores or hyphens').optional(),
    destinationAddress: destinationAddress.optional(),
    destinationToken: destinationToken.optional(),
    destinationChainId: destinationChainId.optional(),
    feePayer: feePayer.optional(),
    buyerFeeShareBps: z.number().int().min(0).max(10_000).optional(),
    dynamicOrdersEnabled: z.boolean().optional(),
    enabledRails: z.array(z.string().min(1).max(32)).min(1).max(32).optional(),
    successUrl: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
    cancelUrl: z.url({ protocol: /^https?$/ }).max(2048).nullable().optional(),
    notes: freeFormObject.nullable().optional(),
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

export const orderPath = z.strictObject({ orderId });

export const listOrdersQuery = z.strictObject({
  orderId: z.string().max(128).optional(),
  status: orderStatus.optional(),
  displayStatus: z.enum(['ACTIVE', 'EXPIRED', 'CREATED']).optional(),
  chargebackStatus: orderChargebackStatus.optional(),
  search: z.string().max(256).optional(),
  ...pageQuery,
});
