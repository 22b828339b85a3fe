/**
 * A checkout state as the API answers it (gateway/cashout/cashout-state.ts), read as the
 * payout checkout page reads it: `pageReads` is where the page's hand-written type is held to
 * the API's, so a field the page relies on cannot change in the API without this failing to
 * compile.
 */
import type { CashoutPayoutQuote } from '../../../gateway/cashout/cashout-bridges.js';
import type { CashoutState as AnsweredState } from '../../../gateway/cashout/cashout-state.js';
import type { CashoutState as PageState, PayoutQuote } from '../../../gateway/hosted-page/client/cashout-api.js';

const pageReads = (state: AnsweredState): PageState => state;
const pageReadsQuote = (quote: CashoutPayoutQuote): PayoutQuote => quote;

type PayoutOverrides = Partial<AnsweredState['payout']>;

/** A funded 100 USDC payout of Lumen Coffee offering every rail, signed-in actions of FUNDED; `overrides` change the rest. */
export function answeredState(overrides: Partial<Omit<AnsweredState, 'payout'>> & { payout?: PayoutOverrides } = {}): PageState {
  const { payout, ...rest } = overrides;
  return pageReads({
    payout: {
      payoutId: 'po_4Fz1hQk9TbW2mX7pLr0sVc3N',
      merchantReference: null,
      status: 'FUNDED',
      fundingStatus: 'FUNDED',
      payoutCurrency: null,
      payout: { amount: '100.00', chainId: 8453, tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6 },
      merchantFee: { bps: 100, amount: '1.00' },
      funding: {
        chainId: 8453,
        tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        decimals: 6,
        amount: '104.123712',
        sentAmount: '104.123712',
        missingAmount: '0',
        expectedAmount: '101.00',
        receivedAmount: '101.00',
        depositAddress: null,
        quoteExpiresAt: '2026-11-23T13:00:00.000Z',
      },
      depositAmount: '100.00',
      paidAmount: '0.00',
      partialFills: [],
      settlement: null,
      attempt: null,
      payoutTransfer: null,
      cancelSource: null,
      returnUrl: null,
      expiresAt: '2026-11-24T12:00:00.000Z',
      fundedAt: '2026-11-23T12:01:00.000Z',
      settledAt: null,
      cancelledAt: null,
      createdAt: '2026-11-23T12:00:00.000Z',
      ...payout,
    },
    merchant: { name: 'Lumen Coffee' },
    sentTo: 'a••@example.com',
    walletAddress: '0x6666666666666666666666666666666666666666',
    actions: ['SIGN_IN', 'SAVE_METHOD'],
    rails: [
      ...(['venmo', 'cashapp', 'paypal', 'zelle', 'revolut', 'chime'] as const).map((rail) => ({ rail, kind: 'FIAT' as const, minAmount: '1.00' })),
      { rail: 'routea_8453', kind: 'CRYPTO', minAmount: null },
    ],
    timeline: [],
    method: null,
    walletShortfall: null,
    listingError: null,
    connection: null,
    unpaidAmount: payout?.depositAmount ?? '100.00',
    payoutBridge: null,
    settleTx: null,
    ...rest,
  });
}

export const VENMO = { rail: 'venmo', handle: '1618033988', currency: 'USD' } as const;

export const USDT_ON_ARBITRUM = {
  rail: 'routea_42161',
  destination: {
    chainId: 42161,
    tokenAddress: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
    symbol: 'USDT',
    decimals: 6,
    address: '0x4444444444444444444444444444444444444444',
  },
} as const;

export const BASE_USDC_DESTINATION = {
  rail: 'routea_8453',
  destination: {
    chainId: 8453,
    tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    symbol: 'USDC',
    decimals: 6,
    address: '0x4444444444444444444444444444444444444444',
  },
} as const;

/** The newest bridge of 100 USDC to USDT on Arbitrum, as the API answers it; `overrides` change the rest. */
export function answeredBridge(overrides: Partial<NonNullable<AnsweredState['payoutBridge']>> = {}): NonNullable<AnsweredState['payoutBridge']> {
  return {
    provider: 'ROUTEA',
    status: 'BRIDGING',
    destination: USDT_ON_ARBITRUM.destination,
    usdcAmount: '100.00',
    estimatedAmount: '99.9',
    deliveredAmount: null,
    destinationTxHash: null,
    refundedAmount: null,
    refundTxHash: null,
    ...overrides,
  };
}

/** A payout-quote answer for `destination`, as the API answers it. */
export function answeredQuote(overrides: Partial<CashoutPayoutQuote> = {}): PayoutQuote {
  return pageReadsQuote({
    destination: USDT_ON_ARBITRUM.destination,
    usdcAmount: '100.00',
    estimatedAmount: '99.9',
    quotedAt: '2026-11-23T12:05:00.000Z',
    ...overrides,
  });
}
