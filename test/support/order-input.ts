/** Creation inputs for order tests, as the gateway hands them over: validated, normalised, money in base units. */
import type { OrderInput } from '../../machines/order/index.js';

export const CREATED_AT = '2026-11-23T12:00:00.000Z';

export function fixedOrderInput(overrides: Partial<OrderInput> = {}): OrderInput {
  return {
    id: 'ord_fixed',
    merchantId: 'mer_1',
    environment: 'LIVE',
    amountMode: 'FIXED',
    requestedUsdcAmount: 100_000_000n,
    requestedFiat: null,
    openAmount: null,
    destinationAddress: '0x1111111111111111111111111111111111111111',
    destinationToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    destinationChainId: '8453',
    feePayer: 'MERCHANT',
    buyerFeeShareBps: 0,
    enabledRails: ['venmo', 'zelle'],
    successUrl: 'https://shop.example/ok',
    cancelUrl: null,
    notes: { sku: 'A1', customer: 'Ada Lovelace' },
    metadata: null,
    dynamicOrdersEnabled: false,
    inPersonCheckout: false,
    completionDustThresholdUsdc: 500_000n,
    orderTokenHash: 'a'.repeat(64),
    idempotencyKey: null,
    requestHash: null,
    at: CREATED_AT,
    ...overrides,
  };
}

export function openOrderInput(overrides: Partial<OrderInput> = {}): OrderInput {
  return fixedOrderInput({
    id: 'ord_open',
    amountMode: 'OPEN',
    requestedUsdcAmount: null,
    openAmount: { currency: 'EUR', minAmount: '5.00', maxAmount: '500.00', presets: ['10.00', '20.00'] },
    dynamicOrdersEnabled: true,
    ...overrides,
  });
}
