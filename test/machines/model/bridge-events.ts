/**
 * The bridge model's inputs (docs/bridges.md): one bridge of a settled payment's 25 USDC to
 * USDC on Arbitrum, offered each report of its effects for the current try (quoted, sent,
 * delivered, failed with or without USDC given back, refunded) and a late report of the try
 * before, which changes nothing. Timers (the polls and the retry backoff) the walk offers itself.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { bridgeKind } from '../../../actors/kinds/bridge-kind.js';
import type { BridgeContext, BridgeEvent } from '../../../machines/bridge/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

export const BRIDGE_KIND = bridgeKind;

const AT = '2026-11-23T12:00:00.000Z';
const REPORTED_AT = '2026-11-23T12:00:30.000Z';

export const BRIDGE_VARIANTS: Variant[] = [
  {
    name: '25 USDC to Arbitrum',
    id: 'brg_pay_model0000000000000000001',
    create: {
      type: 'CREATE',
      paymentId: 'pay_model0000000000000000001',
      orderId: 'ord_model0000000000000000001',
      merchantId: 'mer_model0000000000000000001',
      environment: 'LIVE',
      source: { chainId: '8453', token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6 },
      destination: {
        chainId: '42161',
        token: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
        decimals: 6,
        address: '0x2222222222222222222222222222222222222222',
      },
      amountUsdc: 25_000_000n,
      refundAddress: '0x1111111111111111111111111111111111111111',
      at: AT,
    },
  },
];

export function bridgeEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const context = snapshot.context as BridgeContext;
  const attempt = context.attempts.at(-1)!.number;
  const events: BridgeEvent[] = [
    sample('quoted', {
      type: 'BRIDGE_QUOTED',
      attempt,
      requestId: `req_${attempt}`,
      depositAddress: '0x3333333333333333333333333333333333333333',
      estimatedAmount: 24_900_000n,
      at: REPORTED_AT,
    }),
    sample('sent', { type: 'BRIDGE_SENT', attempt, sourceTxHash: `0x${'5e'.repeat(32)}`, at: REPORTED_AT }),
    sample('delivered', { type: 'BRIDGE_DELIVERED', attempt, deliveredAmount: 24_900_000n, destinationTxHash: `0x${'de'.repeat(32)}`, at: REPORTED_AT }),
    sample('failed, USDC given back', { type: 'BRIDGE_ATTEMPT_FAILED', attempt, reason: 'REFUNDED_BY_PROVIDER', returnedUsdc: 24_950_000n, at: REPORTED_AT }),
    sample('refused', { type: 'BRIDGE_ATTEMPT_FAILED', attempt, reason: 'QUOTE_REFUSED', returnedUsdc: null, at: REPORTED_AT }),
    sample('refunded', { type: 'BRIDGE_REFUNDED', txHash: `0x${'4f'.repeat(32)}`, at: REPORTED_AT }),
  ];
  if (attempt > 1)
    events.push(
      sample('late report of the try before', {
        type: 'BRIDGE_DELIVERED',
        attempt: attempt - 1,
        deliveredAmount: 1n,
        destinationTxHash: `0x${'00'.repeat(32)}`,
        at: REPORTED_AT,
      }),
    );
  return events;
}

/** The state, which try it is on and whether the refund is mined: what the guards and the view read. */
export function bridgeAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as BridgeContext;
  return {
    state: snapshot.value,
    attempts: context.attempts.length,
    quoted: context.attempts.at(-1)!.depositAddress !== null,
    refunded: context.refund?.txHash ?? null,
  };
}
