/**
 * The link between a refund's payout and its order (docs/refunds.md), on the runtime with the
 * real order and payout kinds: the order's REFUND creates the payout through the order's
 * outbox, and the payout tells the order its news through its own. The transport here delivers
 * every news twice more (the same message again, as a retried effect does, and once under
 * another message id, as a sender would once past the receiver's memory of ids): the refund is
 * still counted once, announced once, and the order holds what it should.
 */
import test from 'ava';
import {
  EmbeddedTransport,
  withEffects,
  type ActorAddress,
  type ActorMessage,
  type DomainEvent,
  type MessageHost,
  type Transport,
} from '../../../actors/index.js';
import { orderKind } from '../../../actors/kinds/order-kind.js';
import { reportToSelf } from '../../../actors/runtime/effect-report.js';
import { payoutKind } from '../../../actors/kinds/payout-kind.js';
import type { PayoutEvent, PayoutInput } from '../../../machines/payout/index.js';
import { fixedOrderInput } from '../../support/order-input.js';
import { startTestSystem } from '../../support/test-node.js';

const USDC = 1_000_000n;
const AT = '2026-11-23T12:30:00.000Z';
const PAYOUT = 'po_refund_link';

/** Delivers each news a refund's payout tells its order three times: once, again with the same id, and with another id. */
class RepeatingTransport implements Transport {
  readonly adapter = 'embedded';
  readonly #inner = new EmbeddedTransport();
  repeated = 0;

  start(host: MessageHost) {
    return this.#inner.start(host);
  }

  async send(address: ActorAddress, message: ActorMessage, timeoutMs: number): Promise<unknown> {
    const reply = await this.#inner.send(address, message, timeoutMs);
    if (address.kind === 'order' && message.event.type.startsWith('REFUND_PAYOUT_')) {
      this.repeated++;
      await this.#inner.send(address, message, timeoutMs);
      await this.#inner.send(address, { ...message, id: `${message.id}:again` }, timeoutMs);
    }
    return reply;
  }

  ownedShards() {
    return this.#inner.ownedShards();
  }

  fence() {
    return this.#inner.fence();
  }

  status() {
    return this.#inner.status();
  }

  stop() {
    return this.#inner.stop();
  }
}

/** The payout kind with effects that prepare at once and watch nothing: the funding is reported by the test. */
const payouts = withEffects(payoutKind, {
  preparePayout: async (params, context) =>
    reportToSelf<PayoutEvent>(context, {
      type: 'PREPARED',
      walletAddress: '0x6666666666666666666666666666666666666666',
      walletUserId: 'user_ana',
      requestId: `req_${params.payoutId}`,
      depositAddress: '0x7777777777777777777777777777777777777777',
      fundingAmount: params.depositUsdc,
      at: AT,
    }),
  watchWallet: async () => {},
  checkFunding: async () => {},
  checkWallet: async () => {},
  listPayout: async () => {},
  watchListing: async () => {},
  sendPayout: async () => {},
});

function refundPayout(orderId: string): { type: 'CREATE' } & PayoutInput {
  return {
    type: 'CREATE',
    id: PAYOUT,
    merchantId: 'mer_1',
    idempotencyKey: 'refund-link-0001',
    requestHash: 'r'.repeat(64),
    customerEmail: 'ana@example.com',
    merchantReference: null,
    returnUrl: null,
    payoutUsdc: 40n * USDC,
    funding: { chainId: 8453, tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6, stable: true, refundAddress: null },
    terms: {
      rails: ['zelle'],
      merchantFeeBps: 0,
      merchantWalletAddress: null,
      serviceFeeBps: 0,
      serviceWalletAddress: '0x5555555555555555555555555555555555555555',
      payoutStepUsdc: 1n,
    },
    bufferUsdc: 0n,
    expectedUsdc: 40n * USDC,
    depositUsdc: 40n * USDC,
    merchantFeeUsdc: 0n,
    fundingWindowMs: 86_400_000,
    pollMs: 86_400_000,
    refundOf: { orderId },
    at: AT,
  };
}

async function linked() {
  const transport = new RepeatingTransport();
  const { system, bus } = await startTestSystem({ kinds: [orderKind, payouts], transport });
  const events: DomainEvent[] = [];
  await bus.consume({ durable: 'refund-link-test', kinds: ['order'] }, async (event) => void events.push(event));
  const order = fixedOrderInput({ id: 'ord_refund_link' });
  await system.ask(orderKind, order.id, { type: 'CREATE', ...order });
  await system.ask(orderKind, order.id, { type: 'APPLY_SETTLEMENT', paymentId: 'pay_1', usdcAmount: 100n * USDC, at: AT });
  return {
    system,
    transport,
    orderId: order.id,
    view: async () => (await system.views(orderKind).findOne({ _id: order.id }))!.view,
    payout: async () => (await system.views(payoutKind).findOne({ _id: PAYOUT }))!.view,
    refundEvents: async () => {
      await system.effectsIdle();
      for (let i = 0; i < 100; i++) await new Promise((resolve) => setImmediate(resolve));
      return events.filter((event) => event.type.startsWith('REFUND_'));
    },
  };
}

test('the order creates the refund’s payout, and news told three times counts once: one REFUND_PENDING, one REFUND_COMPLETED, 40 refunded', async (t) => {
  const link = await linked();
  await link.system.ask(orderKind, link.orderId, {
    type: 'REFUND',
    payoutId: PAYOUT,
    amountUsdc: 40n * USDC,
    metadata: { reason: 'damaged' },
    payout: refundPayout(link.orderId),
    at: AT,
  });
  await link.system.effectsIdle();
  t.like(await link.payout(), { phase: 'AWAITING_FUNDING', refundOf: { orderId: link.orderId } }, 'the order’s tell made the payout, which prepared');
  t.like((await link.view()).order, { status: 'FULFILLED', refundStatus: 'PENDING', refundAmountUsdc: '40', refundDepositId: PAYOUT });

  await link.system.ask(payoutKind, PAYOUT, {
    type: 'FUNDING_OBSERVED',
    transfers: [
      {
        id: 't1',
        status: 'delivered',
        originAmount: '40000000',
        startedAt: AT,
        swept: true,
        sourceTransactionHash: `0x${'1'.repeat(64)}`,
        deliveredUsdc: '40000000',
        deliveryTransactionHash: `0x${'2'.repeat(64)}`,
        refundTransactionHash: null,
      },
    ],
    at: AT,
  });
  const events = await link.refundEvents();
  t.is(link.transport.repeated, 2, 'both news (created, funded) were delivered three times each');
  t.deepEqual(
    events.map((event) => event.type),
    ['REFUND_PENDING', 'REFUND_COMPLETED'],
  );
  const view = await link.view();
  t.like(view.order, {
    status: 'FULFILLED',
    refundStatus: 'COMPLETED',
    refundAmountUsdc: '40',
    refundDepositId: PAYOUT,
    refundTransactionHash: `0x${'2'.repeat(64)}`,
    refundMetadata: { reason: 'damaged' },
  });
  t.is(view.refundableAmountUsdc, '60', 'what settled, less the refund once');
  t.is(view.refunds.length, 1);
  t.deepEqual(events[1]!.data.refund, view.refunds[0], 'the webhook’s data.refund is the refund as the order read shows it');
});
