/**
 * Live attempts for remediation route tests, on a test gateway with no chain: the merchant's
 * live order is placed through the API, its attempt created on the payment actor directly (the
 * node takes no live payment without a chain) and moved to the state a test needs with the
 * messages the chain would send it.
 */
import { keccak256, toBytes } from 'viem';
import { paymentKind } from '../../actors/kinds/index.js';
import { SIGNAL_PURPOSE, type PaymentEvent, type PaymentInput } from '../../machines/payment/index.js';
import { DESTINATION, isoNow, placeOrder, type PlacedOrder } from './checkout.js';
import type { TestGateway } from './gateway.js';
import { livePaymentInput } from './payment-input.js';

let made = 0;
/** A payment id of the shape the routes take (pay_ and 24 letters or digits). */
export const paymentIdFor = (label: string) =>
  `pay_${label
    .replace(/[^0-9A-Za-z]/g, '')
    .slice(0, 12)
    .padEnd(12, 'x')}${String(++made).padStart(12, '0')}`;

export type AttemptState = 'SIGNALLING' | 'AWAITING_PAYMENT' | 'CANCELLED' | 'SETTLED';

export interface LiveAttempt {
  order: PlacedOrder;
  paymentId: string;
  intentHash: `0x${string}`;
  /** The route prefix of this attempt's actions. */
  path: (suffix: string) => string;
}

/** A live order of `liveKey`'s merchant with one venmo attempt in `state`. */
export async function liveAttempt(
  gateway: TestGateway,
  merchant: { liveId: string; liveKey: string },
  state: AttemptState,
  overrides: Partial<PaymentInput> = {},
  order?: PlacedOrder,
): Promise<LiveAttempt> {
  const placed = order ?? (await placeOrder(gateway, merchant.liveKey));
  const paymentId = paymentIdFor(state);
  const intentHash = keccak256(toBytes(paymentId));
  const input = livePaymentInput({
    id: paymentId,
    orderId: placed.id,
    merchantId: merchant.liveId,
    at: isoNow(gateway),
    quote: { ...livePaymentInput().quote, toAddress: DESTINATION, sellerAutomatedRelease: true },
    ...overrides,
  });
  const system = gateway.node.system;
  await system.ask(paymentKind, paymentId, { type: 'CREATE', ...input });
  const tell = (event: PaymentEvent) => system.ask(paymentKind, paymentId, event);
  if (state !== 'SIGNALLING') {
    if (state === 'CANCELLED') await tell({ type: 'CANCEL', reason: 'CUSTOMER', at: isoNow(gateway) });
    else {
      await tell({
        type: 'TRANSACTION_OUTCOME',
        transactionId: `${paymentId}-signal`,
        purpose: SIGNAL_PURPOSE,
        outcome: { status: 'MINED', hash: intentHash, reason: null, at: gateway.clock.now() },
      });
      const seconds = Math.floor(gateway.clock.now() / 1000);
      await tell({ type: 'INTENT_SIGNALED', intentHash, signalTimestamp: seconds, expiryTime: seconds + input.windowMs / 1000, at: isoNow(gateway) });
      if (state === 'SETTLED') {
        await tell({
          type: 'CHAIN_FACT',
          fact: {
            id: `fact_${paymentId}`,
            transactionHash: `0x${'f0'.repeat(32)}`,
            blockTimestamp: String(seconds),
            intentFulfilled: { intentHash, amount: input.price.netUsdc.toString(), fundsTransferredTo: DESTINATION },
          },
        });
      }
    }
  }
  await system.effectsIdle();
  return {
    order: placed,
    paymentId,
    intentHash,
    path: (suffix) => `/api/v1/merchants/me/orders/${placed.id}/payments/${paymentId}/${suffix}`,
  };
}
