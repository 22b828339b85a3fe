/**
 * OrderBridgeInfo (document 1: "not shown"): a payment bridge as merchants read it, on the
 * hosted order (`bridgeInfo`) and on PAYMENT_BRIDGE_* webhooks (`data.paymentBridge`). The
 * design is docs/bridges.md; the shape is machines/bridge/bridge-view.ts.
 */
import { z } from 'zod';

const text = (description: string) => z.string().meta({ description });
const nullableText = (description: string) => z.string().nullable().meta({ description });
const decimal = (description: string) => z.string().meta({ description, example: '24.5' });
const nullableDecimal = (description: string) => z.string().nullable().meta({ description, example: '24.5' });

export const orderBridgeInfo = z
  .object({
    id: text('The bridge id: brg_ and the payment id'),
    paymentId: text('The settled payment whose net USDC is bridged'),
    orderId: text('The order'),
    status: z.enum(['PENDING', 'SUBMITTED', 'COMPLETED', 'FAILED']).meta({
      description:
        'PENDING: quoting or sending to the provider (also while a retry waits); SUBMITTED: the provider has the USDC; COMPLETED: delivered; FAILED: tries exhausted, refunded to the merchant’s Base wallet',
    }),
    sourceChainId: text('Where the USDC leaves from: Base (8453), decimal'),
    sourceToken: text('USDC on Base, its address'),
    destinationChainId: text('The order’s destination chain, decimal'),
    destinationToken: text('The order’s destination token, its address (the mint on Solana)'),
    destinationAddress: text('The order’s destination address'),
    amountUsdc: decimal('The payment’s net settled USDC the bridge took'),
    estimatedAmount: nullableDecimal('What the current try is expected to deliver, in the destination token; null before a quote'),
    deliveredAmount: nullableDecimal('What was delivered, in the destination token; null until COMPLETED'),
    attempts: z.number().int().min(1).max(3).meta({ description: 'Tries of the provider so far (at most 3)' }),
    providerRequestId: nullableText('The conversion provider’s request id of the current try'),
    sourceTransactionHash: nullableText('The Base transaction that sent the USDC to the provider, for the current try'),
    destinationTransactionHash: nullableText('The delivery on the destination chain; null until COMPLETED'),
    failureReason: nullableText('Why the last try failed; null while none did'),
    refundAddress: nullableText('FAILED only: the merchant’s Base wallet the USDC goes back to'),
    refundedAmountUsdc: nullableDecimal('FAILED only: the USDC sent back'),
    refundTransactionHash: nullableText('FAILED only: the Base transaction of the refund, once mined'),
    createdAt: text('When the payment settled and the bridge began'),
    submittedAt: nullableText('When the current try’s USDC reached the provider'),
    completedAt: nullableText('When it was delivered'),
    failedAt: nullableText('When the last try failed'),
    updatedAt: text('Its last change'),
  })
  .meta({
    id: 'OrderBridgeInfo',
    description: 'A payment bridge: the net USDC of a settled payment carried from Base to the order’s destination (docs/bridges.md)',
  });
