/**
 * A payout machine's input for tests that drive the machine or the kind directly: 100 USDC
 * funded in USDC on Base, no fees, a step of 100 USDC, a day's funding window; `overrides`
 * change the rest (an id, the rails).
 */
import type { PayoutInput } from '../../machines/payout/index.js';
import { USDC_ON_BASE } from './payout-fakes.js';

const USDC = 1_000_000n;

export function payoutMachineInput(overrides: Partial<PayoutInput> & Pick<PayoutInput, 'id'>): PayoutInput {
  return {
    merchantId: 'mer_1',
    idempotencyKey: `${overrides.id}-key`,
    requestHash: 'c0ffee',
    customerEmail: 'ana@example.com',
    merchantReference: null,
    returnUrl: null,
    payoutUsdc: 100n * USDC,
    funding: { chainId: 8453, tokenAddress: USDC_ON_BASE, symbol: 'USDC', decimals: 6, stable: true, refundAddress: null },
    terms: {
      rails: ['zelle'],
      merchantFeeBps: 0,
      merchantWalletAddress: null,
      serviceFeeBps: 0,
      serviceWalletAddress: '0x5555555555555555555555555555555555555555',
      payoutStepUsdc: 100n * USDC,
    },
    bufferUsdc: 0n,
    expectedUsdc: 100n * USDC,
    depositUsdc: 100n * USDC,
    merchantFeeUsdc: 0n,
    fundingWindowMs: 86_400_000,
    pollMs: 30_000,
    at: '2026-11-23T12:00:00.000Z',
    ...overrides,
  };
}
