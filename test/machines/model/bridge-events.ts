/**
 * The bridge model's inputs: 25 USDC of a settled payment bridged from Base to USDC on
 * Arbitrum, and the reports of the kind's effects, each naming the current try: the
 * provider's quote, the bridge wallet's mined send, the delivery, a failed try (a refused
 * quote that brought nothing back, or the provider giving back all but its fee), and the
 * refund to the merchant's Base wallet mined. Reports of an earlier try are the stale ones
 * the machine refuses; bridge.model.test.ts checks them apart, as the walk never offers them.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { bridgeKind } from '../../../actors/kinds/bridge-kind.js';
import type { BridgeContext, BridgeEvent, BridgeInput } from '../../../machines/bridge/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

export const BRIDGE_KIND = bridgeKind;

const CREATED_AT = '2026-11-23T12:00:00.000Z';
/** Every report lands at this moment: the machine keeps the order of its reports, not of their stamps. */
const AT = '2026-11-23T12:00:30.000Z';

export const BRIDGE_USDC = 25_000_000n;
/** What the provider gives back of a failed try: the amount less its 0.10 USDC fee. */
export const RETURNED_USDC = 24_900_000n;
export const MERCHANT_BASE_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const USDC_ON_ARBITRUM = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';

const creation: Omit<BridgeInput, 'id'> & { type: 'CREATE' } = {
  type: 'CREATE',
  paymentId: 'pay_model0000000000000000001',
  orderId: 'ord_model0000000000000000001',
  merchantId: 'mer_model0000000000000000001',
  environment: 'LIVE',
  source: { chainId: '8453', token: USDC_ON_BASE, decimals: 6 },
  destination: { chainId: '42161', token: USDC_ON_ARBITRUM, decimals: 6, address: '0x9999999999999999999999999999999999999999' },
  amountUsdc: BRIDGE_USDC,
  refundAddress: MERCHANT_BASE_WALLET,
  at: CREATED_AT,
};

export const BRIDGE_VARIANTS: Variant[] = [{ name: '25 USDC to Arbitrum', id: 'brg_pay_model0000000000000000001', create: creation }];

const hash = (digit: string) => `0x${digit.repeat(64)}`;

/** The reports of one try's effects, stamped with its number. */
export function reportsOf(attempt: number): BridgeEvent[] {
  return [
    sample(`quoted, try ${attempt}`, {
      type: 'BRIDGE_QUOTED',
      attempt,
      requestId: `req_model_${attempt}`,
      depositAddress: '0x7777777777777777777777777777777777777777',
      estimatedAmount: 24_950_000n,
      at: AT,
    }),
    sample(`sent, try ${attempt}`, { type: 'BRIDGE_SENT', attempt, sourceTxHash: hash(String(attempt)), at: AT }),
    sample(`delivered, try ${attempt}`, { type: 'BRIDGE_DELIVERED', attempt, deliveredAmount: 24_950_000n, destinationTxHash: hash('d'), at: AT }),
    sample(`quote refused, try ${attempt}`, { type: 'BRIDGE_ATTEMPT_FAILED', attempt, reason: 'the provider refused the quote', returnedUsdc: null, at: AT }),
    sample(`given back, try ${attempt}`, {
      type: 'BRIDGE_ATTEMPT_FAILED',
      attempt,
      reason: 'the provider refunded the deposit',
      returnedUsdc: RETURNED_USDC,
      at: AT,
    }),
  ];
}

export function bridgeEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const context = snapshot.context as BridgeContext;
  const events: BridgeEvent[] = [...reportsOf(context.attempts.at(-1)!.number), sample('refund mined', { type: 'BRIDGE_REFUNDED', txHash: hash('f'), at: AT })];
  return events;
}

/** The state, and what the guards read: how many tries were made (the current one's number). */
export function bridgeAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as BridgeContext;
  return { state: snapshot.value, attempts: context.attempts.length };
}
