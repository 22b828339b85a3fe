/**
 * The payout model's inputs: a payout of 100 USDC funded in USDC on Arbitrum (a stablecoin:
 * funding.amount 104.123712 at 100 + 200 bps), step 100 USDC, a 24 h window polled every
 * 30 s, and what the providers, the chain and the merchant send it. Funding observations
 * report sets of transfers at the deposit address: none; one still converting, then landing with
 * 48 USDC (alone, or beside another still converting); 105 USDC (an overpayment); the full
 * funding.amount landing with 101 USDC, or with 97 (the rate moved); a refunded one; and,
 * once the deadline passed, one that started after it. Observations are made in the window
 * until the deadline passes, and after it from then on.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { payoutKind, payoutPhaseOf } from '../../../actors/kinds/index.js';
import {
  fundingToken,
  payoutQuoteAmounts,
  type PayoutContext,
  type PayoutEvent,
  type PayoutInput,
  type ReportedTransfer,
} from '../../../machines/payout/index.js';
import { sample, type Variant } from '../../support/model-paths.js';
import { stateName } from '../../support/model-machine.js';

export const PAYOUT_KIND = payoutKind;

const CREATED_AT = '2026-11-23T12:00:00.000Z';
/** In the window. */
const AT = '2026-11-23T12:30:00.000Z';
/** Past every deadline the payout can have: created + 24 h, or an arrival at AT + 24 h. */
const AFTER_DEADLINE = '2026-11-24T13:00:00.000Z';
/** When the late transfer started: after every deadline, before AFTER_DEADLINE. */
const LATE_START = '2026-11-24T12:45:00.000Z';

const USDC = 1_000_000n;
export const PAYOUT_USDC = 100n * USDC;
/** What PREPARED quotes: 104.123712 USDC on Arbitrum, six decimals like USDC on Base. */
export const FUNDING_AMOUNT = 104_123_712n;

const ARBITRUM_USDC = fundingToken(42161, '0xaf88d065e77c8cC2239327C5EDb3A432268e5831')!;
const quote = payoutQuoteAmounts(PAYOUT_USDC, ARBITRUM_USDC.stable, 100, 200);

const input: PayoutInput = {
  id: 'po_model_stable',
  merchantId: 'mer_1',
  idempotencyKey: 'payout-model-0001',
  requestHash: 'c0ffee',
  customerEmail: 'customer@example.com',
  merchantReference: 'invoice-42',
  returnUrl: null,
  payoutUsdc: PAYOUT_USDC,
  funding: {
    chainId: 42161,
    tokenAddress: ARBITRUM_USDC.address,
    symbol: ARBITRUM_USDC.symbol,
    decimals: ARBITRUM_USDC.decimals,
    stable: ARBITRUM_USDC.stable,
    refundAddress: '0x3333333333333333333333333333333333333333',
  },
  terms: {
    rails: ['venmo', 'zelle', 'routea_8453', 'routea_42161'],
    merchantFeeBps: 100,
    merchantWalletAddress: '0x4444444444444444444444444444444444444444',
    serviceFeeBps: 200,
    serviceWalletAddress: '0x5555555555555555555555555555555555555555',
    payoutStepUsdc: 100n * USDC,
  },
  ...quote,
  fundingWindowMs: 24 * 60 * 60 * 1000,
  pollMs: 30_000,
  at: CREATED_AT,
};

export const PAYOUT_VARIANTS: Variant[] = [{ name: '100 USDC funded in USDC', id: input.id, create: { type: 'CREATE', ...input } }];

const hash = (digit: string) => `0x${digit.repeat(64)}`;

function transfer(id: string, status: ReportedTransfer['status'], originAmount: bigint, deliveredUsdc: bigint, startedAt = AT): ReportedTransfer {
  return {
    id,
    status,
    originAmount: originAmount.toString(),
    startedAt,
    swept: true,
    sourceTransactionHash: hash('a'),
    deliveredUsdc: deliveredUsdc.toString(),
    deliveryTransactionHash: status === 'delivered' ? hash(id.at(-1)!) : null,
    refundTransactionHash: status === 'refunded' ? hash('f') : null,
  };
}

/** Transfer `tr_1` reported converting, and then delivered: the one the deadline waits for. */
const converting = transfer('tr_1', 'converting', 50n * USDC, 0n);
const landed48 = transfer('tr_1', 'delivered', 50n * USDC, 48n * USDC);

const TRANSFER_SETS: Array<[string, ReportedTransfer[]]> = [
  ['nothing', []],
  ['converting', [converting]],
  ['48 USDC', [landed48]],
  ['48 USDC, another converting', [landed48, transfer('tr_2', 'converting', 30n * USDC, 0n)]],
  ['105 USDC', [transfer('tr_3', 'delivered', 108n * USDC, 105n * USDC)]],
  ['full amount, 101 USDC', [transfer('tr_4', 'delivered', FUNDING_AMOUNT, 101n * USDC)]],
  ['full amount, 97 USDC', [transfer('tr_5', 'delivered', FUNDING_AMOUNT, 97n * USDC)]],
  ['refunded', [transfer('tr_6', 'refunded', 50n * USDC, 0n)]],
];

/** The deadline passed: what the provider reports now is after it. */
function pastDeadline(snapshot: AnyMachineSnapshot): boolean {
  const phase = payoutPhaseOf(snapshot.value);
  return phase === 'EXPIRED' || stateName(snapshot.value) === 'AWAITING_FUNDING.CLOSING' || (snapshot.context as PayoutContext).updatedAt >= AFTER_DEADLINE;
}

const WALLET = '0x6666666666666666666666666666666666666666';
const USDC_ON_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const CUSTOMER_DESTINATION = '0x9999999999999999999999999999999999999999';
const USDT_ON_ARBITRUM = '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9';
const USDC_DESTINATION = {
  chainId: 8453,
  tokenAddress: USDC_ON_BASE,
  symbol: 'USDC',
  decimals: 6,
  address: CUSTOMER_DESTINATION,
  sentTo: CUSTOMER_DESTINATION.toLowerCase(),
};
const USDT_METHOD = {
  kind: 'CRYPTO' as const,
  rail: 'routea_42161' as const,
  destination: { ...USDC_DESTINATION, chainId: 42161, tokenAddress: USDT_ON_ARBITRUM, symbol: 'USDT' },
};

const PREPARED: PayoutEvent = {
  type: 'PREPARED',
  walletAddress: WALLET,
  walletUserId: 'wallet_user_1',
  requestId: 'req_model',
  depositAddress: '0x7777777777777777777777777777777777777777',
  fundingAmount: FUNDING_AMOUNT.toString(),
  at: '2026-11-23T12:00:02.000Z',
};

export function payoutEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const late = pastDeadline(snapshot);
  const at = late ? AFTER_DEADLINE : AT;
  const observed = TRANSFER_SETS.map(([label, transfers]) => sample(label, { type: 'FUNDING_OBSERVED' as const, transfers, at }));
  const events: PayoutEvent[] = [
    PREPARED,
    { type: 'PREPARATION_FAILED', code: 'PAYOUT_BRIDGE_QUOTE_FAILED', message: 'the conversion provider did not answer', at: '2026-11-23T12:00:02.000Z' },
    { type: 'RETRY', at: '2026-11-23T12:05:00.000Z' },
    ...observed,
    { type: 'CHECK_FUNDING', at },
    {
      type: 'CHAIN_FACT',
      fact: {
        id: 'fact_usdc_in',
        transactionHash: hash('d'),
        blockTimestamp: String(Date.parse(at) / 1000),
        usdcTransfer: { from: '0x8888888888888888888888888888888888888888', to: WALLET, value: '48000000' },
      },
    },
    { type: 'CANCEL', at },
    sample('venmo', { type: 'REMOVE_RAIL', rail: 'venmo', at }),
    ...checkoutEvents(snapshot.context as PayoutContext, at),
  ];
  // A transfer that started after the deadline can only be seen once it passed.
  if (late)
    events.push(
      sample('started after the deadline', {
        type: 'FUNDING_OBSERVED',
        transfers: [transfer('tr_7', 'delivered', 30n * USDC, 29n * USDC, LATE_START)],
        at: AFTER_DEADLINE,
      }),
    );
  return events;
}

const LISTING_DEPOSIT = '7';
/** The escrow's dust threshold: 0.01 USDC. */
const DUST = 10_000n;

/** A wallet check past the 10 minutes a freshly funded payout is left out for. */
const checkedAt = (context: PayoutContext) => new Date(Date.parse(context.fundedAt ?? AT) + 11 * 60 * 1000).toISOString();
const INTENT = hash('b');

/** A fact about the listing's deposit, in the block of `at`. */
function listingFact(at: string, event: Record<string, unknown>): PayoutEvent {
  return {
    type: 'CHAIN_FACT',
    fact: { id: `fact_${Object.keys(event)[0]}`, transactionHash: hash('e'), blockTimestamp: String(Date.parse(at) / 1000), ...event },
  };
}

/**
 * The customer's side: sign-in, a method (Zelle ready at once, Venmo waiting for its
 * account, a crypto destination), skipping the connection, confirming, the listing landing or
 * failing, and a buyer on the listing: locking 40 USDC, binding its rate, released, paying
 * those 40, or paying the rest.
 */
function checkoutEvents(context: PayoutContext, at: string): PayoutEvent[] {
  const unpaid = (context.depositAmount ?? 0n) - context.paidUsdc - context.refundFeeUsdc;
  const bridged = context.bridges.at(-1);
  const quote = {
    requestId: `bridge_${context.sends + 1}`,
    provider: 'ROUTEA' as const,
    depositAddress: '0xAAaaAAaaAAaaAAaaAAaaAAaaAAaaAAaaAAaaAAaa',
    usdcAmount: unpaid.toString(),
    estimatedAmount: ((unpaid * 995n) / 1000n).toString(),
    quotedAt: at,
  };
  const bridgeSeen = {
    requestId: bridged?.requestId ?? 'bridge_none',
    deliveredAmount: null,
    destinationTxHash: null,
    refundedUsdc: null,
    refundTxHash: null,
    at,
  };
  const part = 40n * USDC < unpaid ? 40n * USDC : unpaid;
  const allButDust = unpaid > DUST ? unpaid - DUST : unpaid;
  const deposit = { depositId: LISTING_DEPOSIT, intentHash: INTENT };
  return [
    { type: 'SIGNED_IN', at },
    sample('zelle', {
      type: 'SAVE_METHOD',
      method: {
        kind: 'FIAT',
        rail: 'zelle',
        handle: 'ana@example.com',
        payeeId: 'ana@example.com',
        currency: 'USD',
        paypalEmail: null,
        connection: 'NOT_NEEDED',
      },
      at,
    }),
    sample('venmo, not connected', {
      type: 'SAVE_METHOD',
      method: { kind: 'FIAT', rail: 'venmo', handle: '3141592653', payeeId: '3141592653', currency: 'USD', paypalEmail: null, connection: 'PENDING' },
      at,
    }),
    sample('USDC on Base', { type: 'SAVE_METHOD', method: { kind: 'CRYPTO', rail: 'routea_8453', destination: USDC_DESTINATION }, at }),
    sample('USDT on Arbitrum', { type: 'SAVE_METHOD', method: USDT_METHOD, at }),
    { type: 'SKIP_CONNECT', at },
    sample('the Venmo account', { type: 'CONNECTED', payeeId: '3141592653', validUntil: AFTER_DEADLINE, at }),
    { type: 'CONFIRM', minUsdc: USDC.toString(), rate: (10n ** 18n).toString(), at },
    sample('through the provider', { type: 'CONFIRM', minUsdc: USDC.toString(), rate: (10n ** 18n).toString(), bridge: quote, at }),
    sample('USDC on Base', {
      type: 'SEND_TO_ADDRESS',
      method: { kind: 'CRYPTO', rail: 'routea_8453', destination: USDC_DESTINATION },
      remainderUsdc: unpaid.toString(),
      bridge: null,
      at,
    }),
    sample('USDT through the provider', { type: 'SEND_TO_ADDRESS', method: USDT_METHOD, remainderUsdc: unpaid.toString(), bridge: quote, at }),
    { type: 'WITHDRAW', at },
    { type: 'RELIST', at },
    sample('delivered', {
      type: 'BRIDGE_OBSERVED',
      ...bridgeSeen,
      status: 'DELIVERED',
      deliveredAmount: bridged?.estimatedAmount.toString() ?? '1',
      destinationTxHash: hash('9'),
    }),
    sample('another request delivered', { type: 'BRIDGE_OBSERVED', ...bridgeSeen, requestId: 'bridge_other', status: 'DELIVERED', deliveredAmount: '1' }),
    sample('refunded in full', {
      type: 'BRIDGE_OBSERVED',
      ...bridgeSeen,
      status: 'REFUNDED',
      refundedUsdc: (bridged?.usdcAmount ?? USDC).toString(),
      refundTxHash: hash('8'),
    }),
    {
      type: 'LISTED',
      listing: context.listings,
      depositId: LISTING_DEPOSIT,
      requestId: `${input.id}-listing-${context.listings}`,
      dustUsdc: DUST.toString(),
      at,
    },
    { type: 'LISTING_FAILED', listing: context.listings, code: 'CASHOUT_LISTING_UNAVAILABLE', message: 'the batch failed', at },
    sample('buyer locks 40', listingFact(at, { fundsLocked: { ...deposit, amount: (40n * USDC).toString() } })),
    sample('buyer’s rate', listingFact(at, { intentSignaled: { ...deposit, conversionRate: (10n ** 18n).toString() } })),
    sample('buyer released', listingFact(at, { fundsUnlocked: { ...deposit, amount: (40n * USDC).toString() } })),
    sample(
      'buyer pays 40',
      listingFact(at, { fundsUnlockedAndTransferred: { ...deposit, unlockedAmount: part.toString(), transferredAmount: part.toString(), to: WALLET } }),
    ),
    sample('send mined', {
      type: 'TRANSACTION_OUTCOME',
      transactionId: `${input.id}-send-${context.sends}`,
      purpose: 'payoutSend',
      outcome: {
        status: 'MINED',
        hash: hash('c') as `0x${string}`,
        blockNumber: 9n,
        gasUsed: 1n,
        effectiveGasPrice: 1n,
        reason: null,
        revertData: null,
        at: Date.parse(at),
      },
    }),
    sample('send reverted', {
      type: 'TRANSACTION_OUTCOME',
      transactionId: `${input.id}-send-${context.sends}`,
      purpose: 'payoutSend',
      outcome: {
        status: 'FAILED',
        hash: hash('c') as `0x${string}`,
        blockNumber: 9n,
        gasUsed: 1n,
        effectiveGasPrice: 1n,
        reason: 'Reverted()',
        revertData: null,
        at: Date.parse(at),
      },
    }),
    { type: 'SEND_REFUSED', send: context.sends, code: 'CASHOUT_SIGNER_NOT_ATTACHED', message: 'not attached', at },
    sample('customer withdrew the listing', listingFact(at, { depositWithdrawn: { depositId: LISTING_DEPOSIT, amount: unpaid.toString() } })),
    sample('wallet holds the payout', { type: 'WALLET_CHECKED', balanceUsdc: (context.depositAmount ?? 0n).toString(), at: checkedAt(context) }),
    sample('wallet spent', { type: 'WALLET_CHECKED', balanceUsdc: '0', at: checkedAt(context) }),
    sample(
      'buyer pays all but dust',
      listingFact(at, {
        fundsUnlockedAndTransferred: { ...deposit, unlockedAmount: allButDust.toString(), transferredAmount: allButDust.toString(), to: WALLET },
      }),
    ),
    sample('dust swept', listingFact(at, { dustCollected: { depositId: LISTING_DEPOSIT, amount: unpaid.toString(), recipient: WALLET } })),
    sample(
      'buyer pays the rest',
      listingFact(at, { fundsUnlockedAndTransferred: { ...deposit, unlockedAmount: unpaid.toString(), transferredAmount: unpaid.toString(), to: WALLET } }),
    ),
  ];
}

/**
 * What the guards and the kind's refusals read. While funding is open: the transfers as
 * merged (status and USDC delivered), the deadline they are counted against, what was
 * received, the rails. Once it closed, only the rails: what arrives then is recorded, never
 * read again. Whether the deadline passed says when the samples are observed.
 */
export function payoutAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as PayoutContext;
  const phase = payoutPhaseOf(snapshot.value);
  // An ended payout only records late funds: nothing else it holds is read again.
  if (phase === 'SETTLED' || phase === 'CANCELLED' || phase === 'EXPIRED') return { value: snapshot.value, late: pastDeadline(snapshot) };
  // The customer's side reads the payout's paths, not the clock: whether the deadline passed splits nothing there.
  const late = phase === 'AWAITING_FUNDING' || phase === 'PREPARING' || phase === 'NOT_CREATED' ? pastDeadline(snapshot) : null;
  const base = {
    value: snapshot.value,
    rails: context.terms.rails,
    late,
    method: context.method ? `${context.method.rail}:${context.method.kind === 'FIAT' ? context.method.connection : 'crypto'}` : null,
    sendFailed: context.sendError !== null,
    deposit: context.depositAmount,
    paid: context.paidUsdc,
    // Read by the listing's guards only: a buyer left over from a listing taken back splits nothing after it.
    buyer: context.buyer && (phase === 'LISTING' || phase === 'PAYING') ? `${context.buyer.lockedUsdc}:${context.buyer.rate}` : null,
    bridge: context.bridges.at(-1)?.status ?? null,
    exit: context.exit?.kind ?? null,
  };
  if (payoutPhaseOf(snapshot.value) !== 'AWAITING_FUNDING') return base;
  return {
    ...base,
    transfers: context.transfers.map((entry) => `${entry.id}:${entry.status}:${entry.deliveredUsdc}`),
    deadline: context.quoteExpiresAt,
    received: context.receivedUsdc,
  };
}
