/**
 * What the refund endpoints answer (docs/refunds.md): a refund as the order holds it
 * (OrderRefund, also a refund webhook's data.refund), the create's answer (the refund, the
 * order, and the payout to fund with its checkout link) and the order's refunds read.
 */
import { z } from 'zod';
import { checkoutOrder } from '../orders/order-resources.js';
import { payoutView } from '../payouts/payout-resources.js';
import { isoTime } from '../schemas/common.js';

const decimalUsdc = z.string().meta({ description: 'Decimal USDC', example: '37.5' });

const orderRefund = z
  .strictObject({
    payoutId: z
      .string()
      .meta({ description: 'The payout that pays the refund (GET /api/v1/payouts/{payoutId}); the refund’s id, and the order’s refundDepositId' }),
    status: z.enum(['PENDING', 'COMPLETED', 'EXPIRED', 'CANCELLED']).meta({
      description:
        'PENDING: its payout awaits your funding. COMPLETED: funded, the USDC is the customer’s. EXPIRED or CANCELLED: its payout ended unfunded; it refunds nothing',
    }),
    requestedAmountUsdc: decimalUsdc.meta({ description: 'What you asked to refund' }),
    refundedAmountUsdc: decimalUsdc.nullable().meta({ description: 'What reached the customer: the payout’s depositAmount; null until COMPLETED' }),
    transactionHash: z
      .string()
      .nullable()
      .meta({ description: 'The Base transaction that delivered the funding’s USDC to the customer’s wallet; null until COMPLETED' }),
    metadata: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The metadata you sent with it' }),
    createdAt: isoTime.meta({ description: 'When its payout was created: PENDING from then' }),
    completedAt: isoTime.nullable().meta({ description: 'When its payout was funded' }),
    endedAt: isoTime.nullable().meta({ description: 'When its payout expired or was cancelled unfunded' }),
  })
  .meta({ id: 'OrderRefund' });

export const createRefundResponse = z
  .strictObject({
    refund: orderRefund.meta({ description: 'The refund, as the order holds it' }),
    order: checkoutOrder.meta({ description: 'The order with the refund counted in its refund fields' }),
    payout: payoutView.meta({ description: 'The refund’s payout: fund exactly funding.amount at funding.depositAddress before funding.quoteExpiresAt' }),
    checkoutUrl: z.string().meta({ description: 'The customer’s link to be paid the refund; a replay answers the current one' }),
    idempotentReplay: z.boolean().meta({ description: 'true when this answers a replay of the Idempotency-Key' }),
  })
  .meta({ id: 'CreateRefundResponse' });

export const orderRefunds = z
  .strictObject({
    refunds: z.array(orderRefund).meta({ description: 'Every refund of the order, newest first' }),
    refundableAmountUsdc: decimalUsdc.meta({
      description: 'What may still be refunded: what settled against the order less what its pending and completed refunds hold',
    }),
  })
  .meta({ id: 'OrderRefunds' });
