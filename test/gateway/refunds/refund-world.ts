/**
 * The payout world (test/gateway/payouts/payout-world.ts) with orders to refund: a live order
 * of the world's merchant, fulfilled by a settlement told to its actor as a payment tells it,
 * and the refund routes as small helpers.
 */
import type { ExecutionContext } from 'ava';
import { decode } from '../../../actors/codec.js';
import type { OrderContext } from '../../../machines/order/index.js';
import { answerOf, placeOrder } from '../../support/checkout.js';
import type { ApiResponse } from '../../support/gateway.js';
import { USDC_ON_BASE } from '../../support/payout-fakes.js';
import { newKey, payoutWorld, type PayoutWorld } from '../payouts/payout-world.js';

export { HOUR, USDC, newKey } from '../payouts/payout-world.js';

export interface RefundWorld extends PayoutWorld {
  /** A live order of `usdc` USDC, paid in full by one settlement (FULFILLED), or by `settled` when given. */
  order(usdc?: string, settled?: bigint[]): Promise<string>;
  refund(orderId: string, body?: Record<string, unknown>, idempotencyKey?: string | null, apiKey?: string): Promise<ApiResponse>;
  /** A refund create that must answer 201: its responseObject. */
  refunded(orderId: string, body?: Record<string, unknown>, idempotencyKey?: string): Promise<any>;
  refunds(orderId: string, apiKey?: string): Promise<ApiResponse>;
  /** The order as the merchant's list shows it. */
  orderRead(orderId: string): Promise<any>;
  /** The payout funded in full: its deposit covers the payout, delivered to the customer's wallet. */
  fund(payoutId: string, usdc?: bigint): Promise<void>;
  orderContext(orderId: string): Promise<OrderContext>;
}

export function refundBody(overrides: Record<string, unknown> = {}) {
  return {
    amount: '37.5',
    customerEmail: 'Ana@Example.com',
    funding: { chainId: 8453, tokenAddress: USDC_ON_BASE },
    ...overrides,
  };
}

let settlements = 0;

export async function refundWorld(t: ExecutionContext, options: Parameters<typeof payoutWorld>[1] = {}): Promise<RefundWorld> {
  const world = await payoutWorld(t, options);
  const { gateway } = world;
  const refund: RefundWorld['refund'] = (orderId, body = refundBody(), idempotencyKey = newKey(), apiKey = world.key) =>
    gateway.request('POST', `/api/v1/merchants/me/orders/${orderId}/refunds`, {
      key: apiKey,
      body,
      headers: idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey },
    });
  return {
    ...world,
    async order(usdc = '100', settled) {
      const placed = await placeOrder(gateway, world.key, { requestedUsdcAmount: usdc });
      for (const units of settled ?? [BigInt(Math.round(Number(usdc) * 1e6))]) {
        await gateway.node.system.askAt(
          { kind: 'order', id: placed.id },
          { type: 'APPLY_SETTLEMENT', paymentId: `pay_settled_${++settlements}`, usdcAmount: units, at: world.iso() },
        );
      }
      return placed.id;
    },
    refund,
    async refunded(orderId, body, idempotencyKey) {
      return answerOf(await refund(orderId, body, idempotencyKey), 201, 'refund create');
    },
    refunds: (orderId, apiKey = world.key) => gateway.request('GET', `/api/v1/merchants/me/orders/${orderId}/refunds`, { key: apiKey }),
    async orderRead(orderId) {
      const list = answerOf(await gateway.request('GET', `/api/v1/merchants/me/orders?orderId=${orderId}`, { key: world.key }), 200, 'order list');
      return list.orders[0];
    },
    async fund(payoutId, usdc) {
      const context = await world.context(payoutId);
      const requestId = context.requestId!;
      world.funding.deliver(world.funding.send(context.fundingAmount, world.iso(), requestId), usdc ?? context.expectedUsdc, requestId);
      await world.activity(payoutId);
    },
    async orderContext(orderId) {
      const doc = await gateway.node.system.documents('order').findOne({ _id: orderId });
      if (!doc) throw new Error(`no order ${orderId}`);
      return decode<{ context: OrderContext }>(doc.snapshot).context;
    },
  };
}
