/**
 * Creation inputs for payment tests, as the gateway hands them over: the quote chosen,
 * priced with the fee schedule, money in base units. A live attempt carries its chain
 * (a local anvil's 31337); a sandbox attempt carries none.
 */
import type { FeePayer } from '../../machines/merchant/index.js';
import { buyerShareBps, priceAttempt, type FeeSchedule, type PaymentChain, type PaymentHex, type PaymentInput } from '../../machines/payment/index.js';

export const PAYMENT_CREATED_AT = '2026-11-23T12:00:00.000Z';
export const WINDOW_MS = 60 * 60 * 1000;
/** PAYMENT_CREATED_AT plus WINDOW_MS. */
export const QUOTE_EXPIRES_AT = '2026-11-23T13:00:00.000Z';

export const FEES: FeeSchedule = { protocolFeeBps: 30, platformFeeBps: 50 };
/** 25 USDC owed. */
export const OWED_USDC = 25_000_000n;
/** 1.02 USD per USDC, 18 decimals. */
export const CONVERSION_RATE = 1_020_000_000_000_000_000n;

export const LIVE_CHAIN: PaymentChain = {
  chainId: 31337,
  escrow: '0x00000000000000000000000000000000000e5c00',
  orchestrator: '0x000000000000000000000000000000000000c0de',
};

export const DESTINATION: PaymentHex = '0x1111111111111111111111111111111111111111';
export const INTENT_HASH: PaymentHex = '0xabcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';
export const OTHER_INTENT_HASH: PaymentHex = '0x9999999999999999999999999999999999999999999999999999999999999999';

/** What the gateway prices an attempt with: the intent for `owedUsdc`, and the fiat it costs at `conversionRate`. */
export function pricedAttempt(owedUsdc: bigint, fees: FeeSchedule, conversionRate: bigint, feePayer: FeePayer = 'MERCHANT') {
  return { ...priceAttempt(owedUsdc, fees, buyerShareBps(feePayer, 0), conversionRate), fees, feePayer };
}

export function livePaymentInput(overrides: Partial<PaymentInput> = {}): PaymentInput {
  return {
    id: 'pay_live',
    orderId: 'ord_fixed',
    merchantId: 'mer_1',
    environment: 'LIVE',
    rail: 'venmo',
    paymentMethodId: null,
    currency: 'USD',
    proofMode: 'BUYER_TEE',
    attestationServiceUrl: 'https://attest.example',
    quote: {
      processorName: 'venmo',
      depositId: '42',
      payeeDetails: '0x2222222222222222222222222222222222222222222222222222222222222222',
      escrowAddress: LIVE_CHAIN.escrow,
      toAddress: DESTINATION,
      fiatCurrencyCode: 'USD',
      conversionRate: CONVERSION_RATE,
      sellerAutomatedRelease: false,
    },
    ...pricedAttempt(OWED_USDC, FEES, CONVERSION_RATE, overrides.feePayer),
    payTo: 'rcpt_7f3a',
    recipientRating: 4.8,
    memoPolicy: 'OPTIONAL',
    windowMs: WINDOW_MS,
    conversion: null,
    chain: LIVE_CHAIN,
    at: PAYMENT_CREATED_AT,
    ...overrides,
  };
}

export function sandboxPaymentInput(overrides: Partial<PaymentInput> = {}): PaymentInput {
  return livePaymentInput({
    id: 'pay_sandbox',
    environment: 'SANDBOX',
    proofMode: 'SIMULATED',
    chain: null,
    ...overrides,
  });
}

/** A live attempt on a crypto rail: the provider's request quoted for the price's USDC, plus its 0.1%. */
export function cryptoPaymentInput(overrides: Partial<PaymentInput> = {}): PaymentInput {
  const fees: FeeSchedule = { protocolFeeBps: 0, platformFeeBps: 50 };
  const priced = pricedAttempt(OWED_USDC, fees, 1_001_000_000_000_000_000n);
  return livePaymentInput({
    id: 'pay_crypto',
    rail: 'relay_42161',
    currency: 'USDC',
    quote: {
      ...livePaymentInput().quote,
      processorName: 'relay_42161',
      depositId: CRYPTO_REQUEST,
      fiatCurrencyCode: 'USDC',
      escrowAddress: CRYPTO_DEPOSIT,
      conversionRate: 1_001_000_000_000_000_000n,
    },
    ...priced,
    paymentAmountCents: 0n,
    payTo: CRYPTO_DEPOSIT,
    windowMs: 6 * 60 * 60 * 1000,
    conversion: {
      requestId: CRYPTO_REQUEST,
      depositAddress: CRYPTO_DEPOSIT,
      originChainId: 42161,
      originToken: 'USDC',
      originTokenAddress: '0x000000000000000000000000000000000000a0b8',
      originDecimals: 6,
      originAmount: (priced.price.releasedUsdc * 1001n) / 1000n,
      recipient: DESTINATION,
      feeRecipient: '0x8888888888888888888888888888888888888888',
    },
    ...overrides,
  });
}

export const CRYPTO_REQUEST = '0x7e9e7e9e7e9e7e9e7e9e7e9e7e9e7e9e7e9e7e9e7e9e7e9e7e9e7e9e7e9e7e9e';
export const CRYPTO_DEPOSIT: PaymentHex = '0xde90de90de90de90de90de90de90de90de90de90';
