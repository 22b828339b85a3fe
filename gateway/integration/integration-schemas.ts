/** What the integration endpoints take and answer: the sandbox test order and the integration status. */
import { z } from 'zod';
import { decimalString } from '../schemas/common.js';
import { destinationAddress } from '../schemas/destination.js';
import { checkoutOrder } from '../orders/order-resources.js';
import { checkoutPayment } from '../payments/payment-resources.js';

export const sandboxTestOrderBody = z
  .strictObject({
    requestedUsdcAmount: decimalString.default('10').meta({ description: 'The order’s USDC amount (10 when absent)' }),
    rail: z.string().min(1).max(32).optional().meta({ description: 'The rail the simulated payment takes; the first the account enables when absent' }),
    destinationAddress: destinationAddress
      .optional()
      .meta({ description: 'The sandbox account’s wallet when absent, or 0x…dEaD when it has none (nothing is delivered in the sandbox)' }),
  })
  .meta({ id: 'SandboxTestOrderRequest', example: { requestedUsdcAmount: '10' } });

export const sandboxTestOrder = z
  .object({
    order: checkoutOrder.meta({ description: 'The order, FULFILLED once the simulated settlement counted' }),
    payment: checkoutPayment.meta({ description: 'The simulated payment, SETTLED' }),
  })
  .meta({ id: 'SandboxTestOrder' });

export const integrationStatus = z
  .object({
    merchantId: z.string().meta({ description: 'The account of the key that asked' }),
    environment: z.enum(['LIVE', 'SANDBOX']).meta({ description: 'The environment of the key that asked' }),
    readyForLive: z.boolean().meta({ description: 'Every required step is done' }),
    steps: z
      .array(
        z
          .object({
            id: z
              .enum(['API_KEY_USED', 'WEBHOOK_CONFIGURED', 'WEBHOOK_DELIVERING', 'TEST_ORDER_FULFILLED', 'WALLET_ON_FILE', 'PLAN_SELECTED', 'IP_ALLOWLIST_SET'])
              .meta({
                description:
                  'The step: API_KEY_USED (a key called the API in the last 30 days), WEBHOOK_CONFIGURED, WEBHOOK_DELIVERING (the last delivery was answered 2xx), TEST_ORDER_FULFILLED, WALLET_ON_FILE, PLAN_SELECTED, IP_ALLOWLIST_SET',
              }),
            done: z.boolean().meta({ description: 'The step is done' }),
            required: z.boolean().meta({ description: 'Going live needs it; a step not required is advice' }),
            detail: z.string().meta({ description: 'What the answer rests on, or what to do' }),
          })
          .meta({ id: 'IntegrationStep', description: 'One step towards going live' }),
      )
      .meta({ description: 'Every step, done or not' }),
  })
  .meta({ id: 'IntegrationStatus' });
