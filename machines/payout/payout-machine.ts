/**
 * The payout, merchant's side (document 2, States and Funding behaviour). Pure: time
 * arrives in events, and the provider's and the chain's answers arrive as reports of the
 * effects the machine asks for.
 *
 * PREPARING and NOT_CREATED come before document 2's states: the customer's wallet is made
 * or found and the provider opens a deposit address; until both answered no route shows the
 * payout, and a failure leaves it NOT_CREATED for the merchant to retry with the same key.
 *
 * AWAITING_FUNDING watches the deposit address: on a schedule (WATCHING re-enters every
 * poll), when the provider reports activity, and when the chain shows USDC reaching the
 * customer's wallet. The deadline is a durable timer on AWAITING_FUNDING itself; an on-time
 * arrival moves it by re-entering the state, which re-arms the timer from the arrival.
 * CLOSING is the deadline passed: one more look decides FUNDED, EXPIRED, or waiting for an
 * on-time transfer still converting (whose USDC counts when it lands; the deadline no longer moves).
 *
 * Money reaching a payout that has left AWAITING_FUNDING is recorded as a funding issue and
 * never reopens it.
 */
import { and, assertEvent, assign, emit, not, setup } from 'xstate';
import {
  countedTransferIds,
  coversPayout,
  fullySentAndLanded,
  fundedDeposit,
  fundingTally,
  isoPlus,
  mergeTransfers,
  movedDeadline,
  newFundingIssues,
  tallyOf,
} from './funding-state.js';
import type { FundingTally } from './funding-state.js';
import { formatTokenAmount, formatUsdcCents } from '../money.js';
import { toPayoutView, type PayoutView } from './payout-view.js';
import { BASE_CHAIN_ID } from './funding-catalog.js';
import type {
  ListPayoutParams,
  PayoutBridge,
  PayoutBridgeQuote,
  PayoutContext,
  PayoutEvent,
  PayoutInput,
  PayoutStatus,
  PayoutTimelineEntry,
} from './payout-types.js';
import { connectsAccount, methodReady, type CryptoDestination, type PayoutMethod } from './payout-methods.js';
import {
  buyerPaid,
  buyerRange,
  buyerReleased,
  dustSwept,
  relistable,
  fiatValue,
  LISTING_MIN_USDC,
  listingFact,
  listingWithdrawn,
  unpaidUsdc,
  WALLET_CHECK_MS,
  walletSpent,
  type ListingFact,
} from './listing-state.js';
import { RAIL_PLATFORMS } from './payout-methods.js';
import { isBaseUsdc } from './destination-catalog.js';
import { tellRefundOrder, type TellAction } from './refund-news.js';

/** The merchant side's webhooks, each carrying the PayoutView as the payout reads after the turn. */
export interface PayoutEmitted {
  type:
    | 'PAYOUT_ORDER_CREATED'
    | 'PAYOUT_ORDER_PARTIALLY_FUNDED'
    | 'PAYOUT_ORDER_FUNDED'
    | 'PAYOUT_ORDER_MATCHED'
    | 'PAYOUT_ORDER_PARTIALLY_PAID'
    | 'PAYOUT_ORDER_SETTLED'
    | 'PAYOUT_ORDER_CANCELLED'
    | 'PAYOUT_ORDER_EXPIRED';
  payout: PayoutView;
  merchantId: string;
  /** PAYOUT_ORDER_PARTIALLY_PAID only (document 2, PayoutPartialPayment). */
  partialPayment?: {
    expectedAmount: string;
    paidAmount: string;
    remainingAmount: string;
    fill: { amount: string; txHash: string; fiat: { currency: string; amount: string } | null };
  };
}

/** After the deadline a view shows no deposit address: the one webhook sent then says so in its params, and the chart with it. */
/** An observation that funds the payout, under `guard`: the one way into FUNDED, from watching or after the deadline. */
const funded = (guard: 'covers' | 'sentAndLanded' | 'receivedSome') =>
  ({
    guard,
    target: '#payout.FUNDED',
    actions: ['recordObservation', 'markFunded', 'recordIssues', announce('PAYOUT_ORDER_FUNDED', 'FUNDED'), tellRefundOrder('FUNDED')],
  }) as const;

const announce = (type: PayoutEmitted['type'], status: PayoutStatus, deadline?: 'deadline passed') => ({
  type: 'announce' as const,
  params: deadline ? { type, status, deadline } : { type, status },
});

/** The context an observation leaves: the transfers merged, and their tally under the current deadline. */
function observed(context: PayoutContext, event: PayoutEvent): { context: PayoutContext; tally: FundingTally } {
  assertEvent(event, 'FUNDING_OBSERVED');
  const transfers = mergeTransfers(context.transfers, event.transfers);
  const next = { ...context, transfers };
  return { context: next, tally: fundingTally(transfers, context.quoteExpiresAt) };
}

const timeOf = (event: PayoutEvent): string | null => ('at' in event && typeof event.at === 'string' ? event.at : null);

function entry(
  type: PayoutTimelineEntry['type'],
  text: string,
  at: string,
  txHash: string | null = null,
  txChainId: number | null = null,
): PayoutTimelineEntry {
  return { type, text, txHash, txChainId, occurredAt: at };
}

/** The customer's side of a payout before the customer acts: also what a payout stored before that side existed migrates to. */
export function customerSideStart() {
  return {
    method: null,
    listings: 0,
    listingMinUsdc: LISTING_MIN_USDC,
    listingRate: 10n ** 18n,
    listing: null,
    listingError: null,
    paidUsdc: 0n,
    fills: [],
    partialFills: [],
    buyer: null,
    settlement: null,
    settledAt: null,
    sends: 0,
    sendError: null,
    payoutTransfer: null,
    bridges: [],
    refundFeeUsdc: 0n,
    exit: null,
  } satisfies Partial<PayoutContext>;
}

/** The relayer's transaction of a payout's send: derived, so a re-run of the effect finds the one it handed over. */
export const sendTransactionId = (payoutId: string, send: number) => `${payoutId.toLowerCase()}-send-${send}`;

/** A crypto method paid straight from the wallet: USDC on Base (document 2: the provider is not called). */
function sendsDirect(context: PayoutContext): boolean {
  const method = context.method;
  return method?.kind === 'CRYPTO' && isBaseUsdc(method.rail, method.destination.tokenAddress);
}

/** The bridge on its way: the newest, while QUOTED or BRIDGING. */
const liveBridge = (context: PayoutContext): PayoutBridge | null => {
  const bridge = context.bridges.at(-1);
  return bridge && (bridge.status === 'QUOTED' || bridge.status === 'BRIDGING') ? bridge : null;
};

/** `bridges` with the newest replaced by `change` of it. */
const withLatestBridge = (context: PayoutContext, change: Partial<PayoutBridge>): PayoutBridge[] => [
  ...context.bridges.slice(0, -1),
  { ...context.bridges.at(-1)!, ...change },
];

function newBridge(context: PayoutContext, quote: PayoutBridgeQuote, destination: CryptoDestination, fromListing: boolean): PayoutBridge {
  return {
    send: context.sends + 1,
    requestId: quote.requestId,
    provider: quote.provider,
    depositAddress: quote.depositAddress,
    destination,
    usdcAmount: BigInt(quote.usdcAmount),
    estimatedAmount: BigInt(quote.estimatedAmount),
    quotedAt: quote.quotedAt,
    status: 'QUOTED',
    fromListing,
    usdcTxHash: null,
    deliveredAmount: null,
    destinationTxHash: null,
    refundedUsdc: null,
    refundTxHash: null,
  };
}

/** Asks the provider where the bridge on its way stands; its word (a refund read from the chain) comes back as BRIDGE_OBSERVED. */
const checkBridgeNow = {
  type: 'checkBridge' as const,
  params: ({ context }: { context: PayoutContext }) => {
    const bridge = context.bridges.at(-1)!;
    return { payoutId: context.id, requestId: bridge.requestId, walletAddress: context.walletAddress!, usdcAmount: bridge.usdcAmount.toString() };
  },
};

/** Asks the chain what the customer's wallet holds; the answer comes back as WALLET_CHECKED. */
const checkWalletNow = {
  type: 'checkWallet' as const,
  params: ({ context }: { context: PayoutContext }) => ({ payoutId: context.id, walletAddress: context.walletAddress! }),
};

/** Asks the provider where the deposit address stands; its report comes back as FUNDING_OBSERVED. */
const checkFundingNow = {
  type: 'checkFunding' as const,
  params: ({ context }: { context: PayoutContext }) => ({ payoutId: context.id, requestId: context.requestId!, walletAddress: context.walletAddress! }),
};

export const payoutMachine = setup({
  types: {
    input: {} as PayoutInput,
    context: {} as PayoutContext,
    events: {} as PayoutEvent,
    emitted: {} as PayoutEmitted,
  },
  delays: {
    fundingDeadline: ({ context }) => Math.max(0, Date.parse(context.quoteExpiresAt) - Date.parse(context.deadlineArmedAt)),
    fundingPoll: ({ context }) => context.pollMs,
    bridgePoll: ({ context }) => context.pollMs,
    walletCheck: WALLET_CHECK_MS,
  },
  guards: {
    covers: ({ context, event }) => {
      const next = observed(context, event);
      return coversPayout(next.context, next.tally);
    },
    sentAndLanded: ({ context, event }) => {
      const next = observed(context, event);
      return fullySentAndLanded(next.context, next.tally);
    },
    receivedGrew: ({ context, event }) => observed(context, event).tally.received > context.receivedUsdc,
    stillConverting: ({ context, event }) => observed(context, event).tally.converting,
    receivedSome: ({ context, event }) => observed(context, event).tally.received > 0n,
    untouched: ({ context }) => context.transfers.length === 0 && context.receivedUsdc === 0n,
    holdsRail: ({ context, event }) => event.type === 'REMOVE_RAIL' && context.terms.rails.includes(event.rail),
    savesReadyMethod: ({ event }) => event.type === 'SAVE_METHOD' && methodReady(event.method),
    connectPending: ({ context }) => context.method?.kind === 'FIAT' && context.method.connection === 'PENDING',
    connectsMethod: ({ context, event }) =>
      event.type === 'CONNECTED' && context.method?.kind === 'FIAT' && connectsAccount(context.method.rail) && context.method.payeeId === event.payeeId,
    fiatMethodReady: ({ context }) => context.method?.kind === 'FIAT' && methodReady(context.method) && unpaidUsdc(context) > 0n,
    baseUsdcMethodReady: ({ context }) => sendsDirect(context) && unpaidUsdc(context) > 0n,
    bridgeQuoted: ({ context, event }) =>
      event.type === 'CONFIRM' &&
      event.bridge !== undefined &&
      context.method?.kind === 'CRYPTO' &&
      !sendsDirect(context) &&
      unpaidUsdc(context) > 0n &&
      BigInt(event.bridge.usdcAmount) === unpaidUsdc(context),
    sendsRemainderDirect: ({ context, event }) =>
      event.type === 'SEND_TO_ADDRESS' &&
      event.bridge === null &&
      isBaseUsdc(event.method.rail, event.method.destination.tokenAddress) &&
      BigInt(event.remainderUsdc) === unpaidUsdc(context),
    bridgesRemainder: ({ context, event }) =>
      event.type === 'SEND_TO_ADDRESS' &&
      event.bridge !== null &&
      BigInt(event.remainderUsdc) === unpaidUsdc(context) &&
      BigInt(event.bridge.usdcAmount) === unpaidUsdc(context),
    exitWithdraws: ({ context }) => context.exit?.kind === 'WITHDRAW',
    exitRelists: ({ context }) => context.exit?.kind === 'RELIST',
    relistable: ({ context }) => relistable(context),
    exitSends: ({ context }) => context.exit?.kind === 'SEND',
    exitBridges: ({ context }) => context.exit?.kind === 'BRIDGE',
    buyerHolds: ({ context }) => context.buyer !== null,
    bridgeDelivered: ({ context, event }) =>
      event.type === 'BRIDGE_OBSERVED' && event.status === 'DELIVERED' && event.requestId === liveBridge(context)?.requestId,
    bridgeRefunded: ({ context, event }) =>
      event.type === 'BRIDGE_OBSERVED' && event.status === 'REFUNDED' && event.requestId === liveBridge(context)?.requestId,
    sentMined: ({ context, event }) =>
      event.type === 'TRANSACTION_OUTCOME' && event.transactionId === sendTransactionId(context.id, context.sends) && event.outcome.status === 'MINED',
    currentSendFailed: ({ context, event }) =>
      (event.type === 'TRANSACTION_OUTCOME' && event.transactionId === sendTransactionId(context.id, context.sends)) ||
      (event.type === 'SEND_REFUSED' && event.send === context.sends),
    currentListing: ({ context, event }) => (event.type === 'LISTED' || event.type === 'LISTING_FAILED') && event.listing === context.listings,
    buyerLocks: ({ context, event }) => event.type === 'CHAIN_FACT' && Boolean(listingFact(context, event.fact as ListingFact)?.fundsLocked),
    buyerRate: ({ context, event }) => event.type === 'CHAIN_FACT' && Boolean(listingFact(context, event.fact as ListingFact)?.intentSignaled),
    buyerReleased: ({ context, event }) => event.type === 'CHAIN_FACT' && buyerReleased(context, event.fact as ListingFact),
    buyerPaidPart: ({ context, event }) => {
      if (event.type !== 'CHAIN_FACT') return false;
      const paid = buyerPaid(context, event.fact as ListingFact);
      return paid !== null && paid < unpaidUsdc(context);
    },
    buyerPaidRest: ({ context, event }) => event.type === 'CHAIN_FACT' && buyerPaid(context, event.fact as ListingFact) !== null,
    /** The payment leaves a rest the escrow sweeps as dust in the same transaction: no partial payment, the sweep settles. */
    buyerPaidAllButDust: ({ context, event }) => {
      if (event.type !== 'CHAIN_FACT') return false;
      const paid = buyerPaid(context, event.fact as ListingFact);
      if (paid === null) return false;
      const rest = unpaidUsdc(context) - paid;
      return rest > 0n && rest <= context.listing!.dustUsdc;
    },
    dustSwept: ({ context, event }) => event.type === 'CHAIN_FACT' && dustSwept(context, event.fact as ListingFact) !== null,
    withdrawnBeforeAnyPayment: ({ context, event }) =>
      event.type === 'CHAIN_FACT' && context.paidUsdc === 0n && listingWithdrawn(context, event.fact as ListingFact) !== null,
    withdrawnAfterPayment: ({ context, event }) => event.type === 'CHAIN_FACT' && listingWithdrawn(context, event.fact as ListingFact) !== null,
    spentBeforeAnyPayment: ({ context, event }) =>
      event.type === 'WALLET_CHECKED' && context.paidUsdc === 0n && walletSpent(context, BigInt(event.balanceUsdc), event.at),
    spentAfterPayment: ({ context, event }) => event.type === 'WALLET_CHECKED' && walletSpent(context, BigInt(event.balanceUsdc), event.at),
  },
  actions: {
    // The runtime's: a message to another actor (a refund's order, machines/payout/refund-news.ts).
    tell: (_, _params: TellAction['params']) => {},
    // Effects: run by the payout kind after the turn is written (actors/payouts/payout-effects.ts).
    preparePayout: (
      _,
      _params: {
        payoutId: string;
        customerEmail: string;
        funding: PayoutContext['funding'];
        depositUsdc: string;
        appFees: Array<{ recipient: string; feeBps: number }>;
      },
    ) => {},
    watchWallet: (_, _params: { payoutId: string; walletAddress: string }) => {},
    listPayout: (_, _params: ListPayoutParams) => {},
    watchListing: (_, _params: { payoutId: string; depositId: string }) => {},
    checkWallet: (_, _params: { payoutId: string; walletAddress: string }) => {},
    sendPayout: (_, _params: { payoutId: string; send: number; transactionId: string; walletAddress: string; to: string; amountUsdc: string }) => {},
    exitListing: (
      _,
      _params: {
        payoutId: string;
        send: number;
        transactionId: string;
        walletAddress: string;
        depositId: string;
        to: string | null;
        amountUsdc: string;
        relist: { minUsdc: string; maxUsdc: string } | null;
      },
    ) => {},
    checkBridge: (_, _params: { payoutId: string; requestId: string; walletAddress: string; usdcAmount: string }) => {},
    checkFunding: (_, _params: { payoutId: string; requestId: string; walletAddress: string }) => {},

    // The payout exists from here, which a retry with the same key can make hours after the first request: the funding window and the deadline's timer both start now, so the deadline shown is the one that closes funding.
    recordPrepared: assign(({ context, event }) => {
      assertEvent(event, 'PREPARED');
      return {
        walletAddress: event.walletAddress,
        walletUserId: event.walletUserId,
        requestId: event.requestId,
        depositAddress: event.depositAddress,
        fundingAmount: BigInt(event.fundingAmount),
        preparationError: null,
        createdAt: event.at,
        quoteExpiresAt: isoPlus(event.at, context.fundingWindowMs),
        deadlineArmedAt: event.at,
        updatedAt: event.at,
        timeline: [...context.timeline, entry('CREATED', 'Payout created; waiting for funding', event.at)],
      };
    }),
    recordPreparationFailed: assign(({ event }) => {
      assertEvent(event, 'PREPARATION_FAILED');
      return { preparationError: { code: event.code, message: event.message }, updatedAt: event.at };
    }),
    recordObservation: assign(({ context, event }) => {
      assertEvent(event, 'FUNDING_OBSERVED');
      const next = observed(context, event);
      return {
        transfers: next.context.transfers,
        receivedUsdc: next.tally.received,
        countedTransferIds: [...countedTransferIds(next.context.transfers, context.quoteExpiresAt)],
        updatedAt: event.at,
      };
    }),
    /** After the payout left AWAITING_FUNDING: the transfers are kept, the counted funding is not touched. */
    recordLateObservation: assign(({ context, event }) => {
      assertEvent(event, 'FUNDING_OBSERVED');
      return { transfers: observed(context, event).context.transfers, updatedAt: event.at };
    }),
    recordIssues: assign(({ context, event }) => {
      const at = timeOf(event) ?? context.updatedAt;
      const issues = newFundingIssues(context, new Set(context.countedTransferIds), at);
      if (issues.length === 0) return {};
      const entries = issues.map((issue) => {
        const amount =
          issue.kind === 'ROUTE_REFUND'
            ? `${formatTokenAmount(issue.amount, context.funding.decimals)} ${context.funding.symbol}`
            : `${formatUsdcCents(issue.amount)} USDC`;
        const text = {
          OVERPAYMENT: `Overpayment: ${amount} above the quote`,
          LATE_FUNDS: `Late funds: ${amount}`,
          ROUTE_REFUND: `Route refund: ${amount} sent back`,
        }[issue.kind];
        return entry('FUNDING_ISSUE', text, at, issue.txHash, issue.kind === 'ROUTE_REFUND' ? context.funding.chainId : BASE_CHAIN_ID);
      });
      return { issues: [...context.issues, ...issues], timeline: [...context.timeline, ...entries] };
    }),
    moveDeadline: assign(({ context, event }) => {
      const at = timeOf(event)!;
      return { quoteExpiresAt: movedDeadline(context, at), deadlineArmedAt: at };
    }),
    notePartial: assign(({ context, event }) => ({
      timeline: [
        ...context.timeline,
        entry('PARTIALLY_FUNDED', `${formatUsdcCents(context.receivedUsdc)} of ${formatUsdcCents(context.payoutUsdc)} USDC received`, timeOf(event)!),
      ],
    })),
    markFunded: assign(({ context, event }) => {
      const at = timeOf(event)!;
      const tally = tallyOf(context);
      const deposit = fundedDeposit(context, tally);
      return {
        depositAmount: deposit,
        fundedAt: at,
        timeline: [...context.timeline, entry('FUNDED', `Funded: ${formatUsdcCents(deposit)} USDC to pay out`, at)],
      };
    }),
    markExpired: assign(({ context, event }) => ({
      timeline: [...context.timeline, entry('FUNDING_EXPIRED', 'The funding deadline passed with nothing received', timeOf(event)!)],
    })),
    markCancelled: assign(({ context, event }) => {
      assertEvent(event, 'CANCEL');
      return {
        cancelledAt: event.at,
        cancelSource: 'MERCHANT' as const,
        updatedAt: event.at,
        timeline: [...context.timeline, entry('CANCELLED', 'Cancelled by the merchant before funding', event.at)],
      };
    }),
    removeRail: assign(({ context, event }) => {
      assertEvent(event, 'REMOVE_RAIL');
      return { terms: { ...context.terms, rails: context.terms.rails.filter((rail) => rail !== event.rail) }, updatedAt: event.at };
    }),
    recordSignIn: assign(({ context, event }) => {
      assertEvent(event, 'SIGNED_IN');
      return { updatedAt: event.at, timeline: [...context.timeline, entry('SIGNED_IN', 'The customer signed in', event.at)] };
    }),
    saveMethod: assign(({ event }) => {
      assertEvent(event, 'SAVE_METHOD');
      return { method: event.method, listingError: null, updatedAt: event.at };
    }),
    connect: assign(({ context, event }) => {
      assertEvent(event, 'CONNECTED');
      return context.method?.kind === 'FIAT'
        ? { method: { ...context.method, connection: 'CONNECTED' as const, connectedUntil: event.validUntil }, updatedAt: event.at }
        : {};
    }),
    skipConnect: assign(({ context, event }) => {
      assertEvent(event, 'SKIP_CONNECT');
      return context.method?.kind === 'FIAT' ? { method: { ...context.method, connection: 'SKIPPED' as const }, updatedAt: event.at } : {};
    }),
    noteReady: assign(({ context, event }) => {
      const at = timeOf(event) ?? context.updatedAt;
      const method = context.method;
      const how = method?.kind === 'FIAT' ? `${method.rail} in ${method.currency}` : method ? `${method.destination.symbol} on ${method.rail}` : 'a method';
      return { timeline: [...context.timeline, entry('METHOD_READY', `Ready to be paid by ${how}`, at)] };
    }),
    startListing: assign(({ context, event }) => {
      assertEvent(event, 'CONFIRM');
      return {
        listings: context.listings + 1,
        listingMinUsdc: BigInt(event.minUsdc),
        listingRate: BigInt(event.rate),
        listingError: null,
        updatedAt: event.at,
      };
    }),
    recordListed: assign(({ context, event }) => {
      assertEvent(event, 'LISTED');
      const method = context.method!;
      const amount = unpaidUsdc(context);
      return {
        listing: {
          depositId: event.depositId,
          requestId: event.requestId,
          rail: method.rail,
          currency: method.kind === 'FIAT' ? method.currency : 'USD',
          listedUsdc: amount,
          paidUsdc: 0n,
          listedAt: event.at,
          dustUsdc: BigInt(event.dustUsdc),
          maxUsdc: buyerRange(amount, context.listingMinUsdc).max,
        },
        updatedAt: event.at,
        timeline: [...context.timeline, entry('LISTED', `${formatUsdcCents(amount)} USDC listed for buyers on ${method.rail}`, event.at)],
      };
    }),
    recordListingFailed: assign(({ event }) => {
      assertEvent(event, 'LISTING_FAILED');
      return { listingError: { code: event.code, message: event.message }, updatedAt: event.at };
    }),
    recordBuyer: assign(({ context, event }) => {
      if (event.type !== 'CHAIN_FACT') return {};
      const fact = listingFact(context, event.fact as ListingFact)!;
      const at = factTime(event.fact as ListingFact, context.updatedAt);
      const locked = fact.fundsLocked;
      const signaled = fact.intentSignaled;
      const intentHash = (locked ?? signaled)!.intentHash;
      const known = context.buyer && context.buyer.intentHash.toLowerCase() === intentHash.toLowerCase() ? context.buyer : null;
      const buyer = {
        intentHash,
        lockedUsdc: locked ? BigInt(locked.amount) : (known?.lockedUsdc ?? 0n),
        rate: signaled ? BigInt(signaled.conversionRate) : (known?.rate ?? null),
        at: known?.at ?? at,
      };
      return known
        ? { buyer, updatedAt: at }
        : {
            buyer,
            updatedAt: at,
            timeline: [...context.timeline, entry('MATCHED', 'A buyer started paying', at, event.fact.transactionHash as string, BASE_CHAIN_ID)],
          };
    }),
    releaseBuyer: assign(({ context, event }) => {
      const at = event.type === 'CHAIN_FACT' ? factTime(event.fact as ListingFact, context.updatedAt) : context.updatedAt;
      return { buyer: null, updatedAt: at, timeline: [...context.timeline, entry('BUYER_DROPPED', 'The buyer did not complete; listed again', at)] };
    }),
    recordFill: assign(({ context, event }) => {
      if (event.type !== 'CHAIN_FACT') return {};
      const fact = event.fact as ListingFact;
      const paid = buyerPaid(context, fact)!;
      const at = factTime(fact, context.updatedAt);
      const txHash = String(fact.transactionHash ?? '').toLowerCase();
      const fill = { amount: paid, txHash, paidAt: at, fiat: fiatValue(context.listing!.currency, paid, context.buyer?.rate ?? null) };
      const paidUsdc = context.paidUsdc + paid;
      const rest = unpaidUsdc({ ...context, paidUsdc });
      // A rest the escrow sweeps as dust is no partial payment: the sweep settles the payout.
      const partial = rest > context.listing!.dustUsdc;
      return {
        paidUsdc,
        fills: [...context.fills, fill],
        partialFills: partial ? [...context.partialFills, fill] : context.partialFills,
        listing: { ...context.listing!, paidUsdc: context.listing!.paidUsdc + paid },
        buyer: null,
        updatedAt: at,
        timeline: [
          ...context.timeline,
          entry(
            partial ? 'PARTIALLY_PAID' : 'SETTLED',
            partial
              ? `A buyer paid ${formatUsdcCents(paid)} USDC; the rest stays listed for buyers`
              : rest > 0n
                ? `A buyer paid ${formatUsdcCents(paid)} USDC; the escrow sweeps the ${formatUsdcCents(rest)} USDC left as dust`
                : `Paid in full: ${formatUsdcCents(context.depositAmount ?? 0n)} USDC`,
            at,
            txHash,
            BASE_CHAIN_ID,
          ),
        ],
      };
    }),
    startSend: assign(({ context, event }) => {
      assertEvent(event, 'CONFIRM');
      return { sends: context.sends + 1, sendError: null, updatedAt: event.at };
    }),
    recordSent: assign(({ context, event }) => {
      assertEvent(event, 'TRANSACTION_OUTCOME');
      const at = new Date(event.outcome.at).toISOString();
      const destination = context.method!.kind === 'CRYPTO' ? context.method!.destination : null;
      const amount = unpaidUsdc(context);
      const hash = event.outcome.hash!.toLowerCase();
      return {
        settledAt: at,
        updatedAt: at,
        payoutTransfer: {
          chainId: BASE_CHAIN_ID,
          tokenAddress: destination!.tokenAddress,
          decimals: destination!.decimals,
          address: destination!.address,
          amount,
          txHash: hash,
          usdcTxHash: hash,
          provider: null,
        },
        settlement: {
          buyerPaidUsdc: context.paidUsdc,
          sentUsdc: amount,
          sentTo: destination!.sentTo,
          returnedUsdc: 0n,
          dustUsdc: 0n,
          refundFeeUsdc: context.refundFeeUsdc,
        },
        timeline: [
          ...context.timeline,
          entry('TRANSFER_SENT', `${formatUsdcCents(amount)} USDC sent to ${destination!.address}`, at, hash, BASE_CHAIN_ID),
          entry('SETTLED', 'Settled', at),
        ],
      };
    }),
    startBridge: assign(({ context, event }) => {
      assertEvent(event, 'CONFIRM');
      const method = context.method as Extract<PayoutMethod, { kind: 'CRYPTO' }>;
      return {
        sends: context.sends + 1,
        sendError: null,
        bridges: [...context.bridges, newBridge(context, event.bridge!, method.destination, false)],
        updatedAt: event.at,
      };
    }),
    /** The USDC reached the provider's deposit address: the bridge is the provider's to deliver or refund. */
    markBridging: assign(({ context, event }) => {
      assertEvent(event, 'TRANSACTION_OUTCOME');
      const at = new Date(event.outcome.at).toISOString();
      const hash = event.outcome.hash!.toLowerCase();
      const bridge = context.bridges.at(-1)!;
      return {
        bridges: withLatestBridge(context, { status: 'BRIDGING', usdcTxHash: hash }),
        exit: null,
        buyer: null,
        updatedAt: at,
        timeline: [
          ...context.timeline,
          entry(
            'TRANSFER_SENT',
            `${formatUsdcCents(bridge.usdcAmount)} USDC sent to be delivered as ${bridge.destination.symbol} to ${bridge.destination.address}`,
            at,
            hash,
            BASE_CHAIN_ID,
          ),
        ],
      };
    }),
    /** The send carrying a bridge's USDC did not go out: the bridge never started (NOT_SENT, never shown). */
    markBridgeNotSent: assign(({ context }) =>
      liveBridge(context)?.status === 'QUOTED' ? { bridges: withLatestBridge(context, { status: 'NOT_SENT' }) } : {},
    ),
    settleBridged: assign(({ context, event }) => {
      assertEvent(event, 'BRIDGE_OBSERVED');
      const bridge = liveBridge(context)!;
      const delivered = BigInt(event.deliveredAmount ?? bridge.estimatedAmount);
      const destinationTxHash = event.destinationTxHash ?? bridge.usdcTxHash!;
      return {
        bridges: withLatestBridge(context, { status: 'DELIVERED', deliveredAmount: delivered, destinationTxHash }),
        settledAt: event.at,
        updatedAt: event.at,
        payoutTransfer: {
          chainId: bridge.destination.chainId,
          tokenAddress: bridge.destination.tokenAddress,
          decimals: bridge.destination.decimals,
          address: bridge.destination.address,
          amount: delivered,
          txHash: destinationTxHash,
          usdcTxHash: bridge.usdcTxHash!,
          provider: bridge.provider,
        },
        settlement: {
          buyerPaidUsdc: context.paidUsdc,
          sentUsdc: bridge.usdcAmount,
          sentTo: bridge.destination.sentTo,
          returnedUsdc: 0n,
          dustUsdc: 0n,
          refundFeeUsdc: context.refundFeeUsdc,
        },
        timeline: [
          ...context.timeline,
          entry(
            'SETTLED',
            `Delivered: ${formatTokenAmount(delivered, bridge.destination.decimals)} ${bridge.destination.symbol} to ${bridge.destination.address}`,
            event.at,
            destinationTxHash,
            bridge.destination.chainId,
          ),
        ],
      };
    }),
    /** A verified refund: what reached the wallet is the customer's to be paid again; what it came back short is a refund fee. */
    recordBridgeRefund: assign(({ context, event }) => {
      assertEvent(event, 'BRIDGE_OBSERVED');
      const bridge = liveBridge(context)!;
      const refunded = BigInt(event.refundedUsdc ?? '0');
      const lost = bridge.usdcAmount > refunded ? bridge.usdcAmount - refunded : 0n;
      return {
        bridges: withLatestBridge(context, { status: 'REFUNDED', refundedUsdc: refunded, refundTxHash: event.refundTxHash }),
        refundFeeUsdc: context.refundFeeUsdc + lost,
        sendError: {
          code: 'CASHOUT_PAYOUT_REFUNDED',
          message: `The provider could not deliver the ${bridge.destination.symbol}: ${formatUsdcCents(refunded)} USDC came back to your wallet. Try again, or choose another way to be paid.`,
        },
        updatedAt: event.at,
        timeline: [
          ...context.timeline,
          entry('PAYOUT_REFUNDED', `${formatUsdcCents(refunded)} USDC came back from the provider`, event.at, event.refundTxHash, BASE_CHAIN_ID),
        ],
      };
    }),
    /** The listing is taken back: alone (WITHDRAW), or with its remainder sent to an address straight or through a bridge. */
    startExit: assign(({ context, event }) => {
      const send = context.sends + 1;
      if (event.type === 'RELIST')
        return {
          sends: send,
          sendError: null,
          exit: { kind: 'RELIST' as const, send, to: null, amountUsdc: unpaidUsdc(context), method: null },
          updatedAt: event.at,
        };
      if (event.type === 'WITHDRAW')
        return { sends: send, sendError: null, exit: { kind: 'WITHDRAW' as const, send, to: null, amountUsdc: 0n, method: null }, updatedAt: event.at };
      assertEvent(event, 'SEND_TO_ADDRESS');
      const amount = unpaidUsdc(context);
      if (event.bridge === null)
        return {
          sends: send,
          sendError: null,
          exit: { kind: 'SEND' as const, send, to: event.method.destination.address, amountUsdc: amount, method: event.method },
          updatedAt: event.at,
        };
      return {
        sends: send,
        sendError: null,
        bridges: [...context.bridges, newBridge(context, event.bridge, event.method.destination, true)],
        exit: { kind: 'BRIDGE' as const, send, to: event.bridge.depositAddress, amountUsdc: amount, method: event.method },
        updatedAt: event.at,
      };
    }),
    recordTakenBack: assign(({ context, event }) => {
      assertEvent(event, 'TRANSACTION_OUTCOME');
      const at = new Date(event.outcome.at).toISOString();
      return {
        exit: null,
        buyer: null,
        updatedAt: at,
        timeline: [
          ...context.timeline,
          entry(
            'LISTING_WITHDRAWN',
            `${formatUsdcCents(unpaidUsdc(context))} USDC taken back from the listing to choose another way to be paid`,
            at,
            event.outcome.hash?.toLowerCase() ?? null,
            BASE_CHAIN_ID,
          ),
        ],
      };
    }),
    /** The exit is over: a buyer who got in while it was mined locked what the withdrawal left, and is no longer this payout's to follow. */
    clearExit: assign(() => ({ exit: null, buyer: null })),
    /** The exit went through: where it sent the rest is the payout's method now. */
    adoptExitMethod: assign(({ context }) => (context.exit?.method ? { method: context.exit.method } : {})),
    /** The listing takes buyers up to what is left. */
    recordRelisted: assign(({ context, event }) => {
      assertEvent(event, 'TRANSACTION_OUTCOME');
      const at = new Date(event.outcome.at).toISOString();
      const range = buyerRange(context.exit!.amountUsdc, context.listingMinUsdc);
      return {
        exit: null,
        listing: { ...context.listing!, maxUsdc: range.max },
        updatedAt: at,
        timeline: [
          ...context.timeline,
          entry(
            'RELISTED',
            `Listed again for what is left: up to ${formatUsdcCents(range.max)} USDC a buyer`,
            at,
            event.outcome.hash?.toLowerCase() ?? null,
            BASE_CHAIN_ID,
          ),
        ],
      };
    }),
    /** The exit did not go through: the listing stands, with any buyer who got in meanwhile. */
    endExit: assign(() => ({ exit: null })),
    /** After a partial payment the customer spent the rest in the wallet app: SETTLED, what they kept returned. */
    settleReturned: assign(({ context, event }) => {
      assertEvent(event, 'WALLET_CHECKED');
      const returned = unpaidUsdc(context);
      return {
        settledAt: event.at,
        updatedAt: event.at,
        settlement: { buyerPaidUsdc: context.paidUsdc, sentUsdc: 0n, sentTo: null, returnedUsdc: returned, dustUsdc: 0n, refundFeeUsdc: context.refundFeeUsdc },
        timeline: [
          ...context.timeline,
          entry(
            'SETTLED',
            `Settled: ${formatUsdcCents(context.paidUsdc)} USDC paid by buyers, ${formatUsdcCents(returned)} USDC kept in the wallet app`,
            event.at,
          ),
        ],
      };
    }),
    recordSendFailed: assign(({ event }) => {
      if (event.type === 'SEND_REFUSED') return { sendError: { code: event.code, message: event.message }, updatedAt: event.at };
      if (event.type !== 'TRANSACTION_OUTCOME') return {};
      return {
        sendError: { code: 'CASHOUT_SEND_FAILED', message: `the transfer did not go through: ${event.outcome.reason ?? event.outcome.status}` },
        updatedAt: new Date(event.outcome.at).toISOString(),
      };
    }),
    /** Document 2: a listing withdrawn in the wallet app before any buyer paid cancels the payout; depositAmount becomes what the withdrawal returned. */
    markWithdrawn: assign(({ context, event }) => {
      if (event.type !== 'CHAIN_FACT') return {};
      const fact = event.fact as ListingFact;
      const at = factTime(fact, context.updatedAt);
      const returned = listingWithdrawn(context, fact)!;
      return {
        depositAmount: returned,
        cancelledAt: at,
        cancelSource: 'PEER_APP' as const,
        updatedAt: at,
        timeline: [
          ...context.timeline,
          entry('LISTING_WITHDRAWN', `${formatUsdcCents(returned)} USDC taken back in the wallet app`, at, String(fact.transactionHash ?? ''), BASE_CHAIN_ID),
          entry('CANCELLED', 'Cancelled: the listing was withdrawn in the wallet app before any buyer paid', at),
        ],
      };
    }),
    /** After a partial payment every way out is SETTLED: what the customer took back is returned. */
    settleWithdrawn: assign(({ context, event }) => {
      if (event.type !== 'CHAIN_FACT') return {};
      const fact = event.fact as ListingFact;
      const at = factTime(fact, context.updatedAt);
      const returned = unpaidUsdc(context);
      return {
        settledAt: at,
        updatedAt: at,
        settlement: { buyerPaidUsdc: context.paidUsdc, sentUsdc: 0n, sentTo: null, returnedUsdc: returned, dustUsdc: 0n, refundFeeUsdc: context.refundFeeUsdc },
        timeline: [
          ...context.timeline,
          entry(
            'LISTING_WITHDRAWN',
            `${formatUsdcCents(listingWithdrawn(context, fact)!)} USDC taken back in the wallet app`,
            at,
            String(fact.transactionHash ?? ''),
            BASE_CHAIN_ID,
          ),
          entry('SETTLED', `Settled: ${formatUsdcCents(context.paidUsdc)} USDC paid by buyers, ${formatUsdcCents(returned)} USDC kept`, at),
        ],
      };
    }),
    markSpent: assign(({ context, event }) => {
      assertEvent(event, 'WALLET_CHECKED');
      return {
        cancelledAt: event.at,
        cancelSource: 'PEER_APP' as const,
        updatedAt: event.at,
        timeline: [...context.timeline, entry('CANCELLED', 'The USDC was spent in the wallet app before any buyer paid', event.at)],
      };
    }),
    /** The escrow swept what the last buyer left as dust: SETTLED, the rest in dustAmount. */
    settleSwept: assign(({ context, event }) => {
      if (event.type !== 'CHAIN_FACT') return {};
      const fact = event.fact as ListingFact;
      const at = factTime(fact, context.updatedAt);
      // What the customer was not paid: the escrow's figure for it is the same unless our books are off, and they must still add up.
      const dust = unpaidUsdc(context);
      return {
        settledAt: at,
        updatedAt: at,
        settlement: { buyerPaidUsdc: context.paidUsdc, sentUsdc: 0n, sentTo: null, returnedUsdc: 0n, dustUsdc: dust, refundFeeUsdc: context.refundFeeUsdc },
        timeline: [...context.timeline, entry('SETTLED', `Settled: ${formatUsdcCents(dust)} USDC too small to list was swept by the escrow`, at)],
      };
    }),
    settleByBuyers: assign(({ context }) => ({
      settledAt: context.updatedAt,
      settlement: { buyerPaidUsdc: context.paidUsdc, sentUsdc: 0n, sentTo: null, returnedUsdc: 0n, dustUsdc: 0n, refundFeeUsdc: context.refundFeeUsdc },
    })),
    acknowledge: assign(() => ({})),
    announce: emit(({ context }, params: { type: PayoutEmitted['type']; status: PayoutStatus; deadline?: 'deadline passed' }) => ({
      type: params.type,
      payout: toPayoutView(context, params.status, params.deadline === undefined),
      merchantId: context.merchantId,
    })),
    announcePartialPayment: emit(({ context }) => {
      const fill = context.partialFills.at(-1)!;
      return {
        type: 'PAYOUT_ORDER_PARTIALLY_PAID' as const,
        payout: toPayoutView(context, 'LISTING', false),
        merchantId: context.merchantId,
        partialPayment: {
          expectedAmount: formatUsdcCents(context.depositAmount ?? 0n),
          paidAmount: formatUsdcCents(context.paidUsdc),
          remainingAmount: formatUsdcCents(unpaidUsdc(context)),
          fill: { amount: formatUsdcCents(fill.amount), txHash: fill.txHash, fiat: fill.fiat },
        },
      };
    }),
  },
}).createMachine({
  id: 'payout',
  context: ({ input }) => {
    const { at, ...payout } = input;
    return {
      ...payout,
      createdAt: at,
      updatedAt: at,
      walletAddress: null,
      walletUserId: null,
      requestId: null,
      depositAddress: null,
      fundingAmount: 0n,
      quoteExpiresAt: new Date(Date.parse(at) + input.fundingWindowMs).toISOString(),
      deadlineArmedAt: at,
      transfers: [],
      receivedUsdc: 0n,
      countedTransferIds: [],
      depositAmount: null,
      fundedAt: null,
      cancelledAt: null,
      cancelSource: null,
      preparationError: null,
      issues: [],
      timeline: [],
      ...customerSideStart(),
    };
  },
  initial: 'PREPARING',
  states: {
    PREPARING: {
      entry: {
        type: 'preparePayout',
        params: ({ context }) => ({
          payoutId: context.id,
          customerEmail: context.customerEmail,
          funding: context.funding,
          depositUsdc: context.depositUsdc.toString(),
          appFees: [
            ...(context.terms.merchantFeeBps > 0 && context.terms.merchantWalletAddress
              ? [{ recipient: context.terms.merchantWalletAddress, feeBps: context.terms.merchantFeeBps }]
              : []),
            ...(context.terms.serviceFeeBps > 0 ? [{ recipient: context.terms.serviceWalletAddress, feeBps: context.terms.serviceFeeBps }] : []),
          ],
        }),
      },
      on: {
        PREPARED: {
          target: 'AWAITING_FUNDING',
          actions: ['recordPrepared', announce('PAYOUT_ORDER_CREATED', 'AWAITING_FUNDING'), tellRefundOrder('CREATED')],
        },
        PREPARATION_FAILED: { target: 'NOT_CREATED', actions: ['recordPreparationFailed', tellRefundOrder('NOT_CREATED')] },
      },
    },
    NOT_CREATED: {
      on: { RETRY: { target: 'PREPARING' } },
    },
    AWAITING_FUNDING: {
      entry: { type: 'watchWallet', params: ({ context }) => ({ payoutId: context.id, walletAddress: context.walletAddress! }) },
      after: { fundingDeadline: { target: '.CLOSING' } },
      on: {
        CANCEL: {
          guard: 'untouched',
          target: 'CANCELLED',
          actions: ['markCancelled', announce('PAYOUT_ORDER_CANCELLED', 'CANCELLED'), tellRefundOrder('CANCELLED')],
        },
        REMOVE_RAIL: { guard: 'holdsRail', actions: 'removeRail' },
      },
      initial: 'WATCHING',
      states: {
        WATCHING: {
          entry: checkFundingNow,
          after: { fundingPoll: { target: 'WATCHING', reenter: true } },
          on: {
            CHECK_FUNDING: { actions: checkFundingNow },
            CHAIN_FACT: { actions: checkFundingNow },
            FUNDING_OBSERVED: [
              funded('covers'),
              funded('sentAndLanded'),
              {
                guard: 'receivedGrew',
                target: '#payout.AWAITING_FUNDING',
                reenter: true,
                actions: ['recordObservation', 'moveDeadline', 'notePartial', 'recordIssues', announce('PAYOUT_ORDER_PARTIALLY_FUNDED', 'AWAITING_FUNDING')],
              },
              { actions: ['recordObservation', 'recordIssues'] },
            ],
          },
        },
        // The deadline passed and does not move again: an on-time transfer still converting is waited for, then what arrived decides.
        CLOSING: {
          entry: checkFundingNow,
          after: { fundingPoll: { target: 'CLOSING', reenter: true } },
          on: {
            CHECK_FUNDING: { actions: checkFundingNow },
            CHAIN_FACT: { actions: checkFundingNow },
            FUNDING_OBSERVED: [
              funded('covers'),
              {
                guard: and(['receivedGrew', 'stillConverting']),
                actions: ['recordObservation', 'notePartial', 'recordIssues', announce('PAYOUT_ORDER_PARTIALLY_FUNDED', 'AWAITING_FUNDING', 'deadline passed')],
              },
              { guard: 'stillConverting', actions: ['recordObservation', 'recordIssues'] },
              funded('receivedSome'),
              {
                guard: not('receivedSome'),
                target: '#payout.EXPIRED',
                actions: ['recordObservation', 'markExpired', 'recordIssues', announce('PAYOUT_ORDER_EXPIRED', 'EXPIRED'), tellRefundOrder('EXPIRED')],
              },
            ],
          },
        },
      },
    },
    // The customer's side from here (docs/payout-checkout.md): a method, then a listing buyers pay.
    FUNDED: {
      on: {
        REMOVE_RAIL: { guard: 'holdsRail', actions: 'removeRail' },
        SIGNED_IN: { actions: 'recordSignIn' },
        SAVE_METHOD: [{ guard: 'savesReadyMethod', target: 'READY', actions: ['saveMethod', 'noteReady'] }, { actions: 'saveMethod' }],
        SKIP_CONNECT: { guard: 'connectPending', target: 'READY', actions: ['skipConnect', 'noteReady'] },
        CONNECTED: { guard: 'connectsMethod', target: 'READY', actions: ['connect', 'noteReady'] },
        WALLET_CHECKED: walletChecked(),
        ...lateFunds(),
      },
      after: { walletCheck: { target: 'FUNDED', reenter: true, actions: checkWalletNow } },
    },
    READY: {
      initial: 'IDLE',
      on: { SIGNED_IN: { actions: 'recordSignIn' }, ...lateFunds() },
      states: {
        IDLE: {
          after: { walletCheck: { target: 'IDLE', reenter: true, actions: checkWalletNow } },
          on: {
            WALLET_CHECKED: walletChecked(),
            // Connecting after skipping, or again once the last connection lapsed.
            CONNECTED: { guard: 'connectsMethod', actions: 'connect' },
            SAVE_METHOD: [
              { guard: 'savesReadyMethod', actions: ['saveMethod', 'noteReady'] },
              { target: '#payout.FUNDED', actions: 'saveMethod' },
            ],
            CONFIRM: [
              { guard: 'fiatMethodReady', target: 'LISTING_PENDING', actions: 'startListing' },
              { guard: 'baseUsdcMethodReady', target: 'SENDING', actions: 'startSend' },
              { guard: 'bridgeQuoted', target: 'BRIDGE_SENDING', actions: 'startBridge' },
            ],
          },
        },
        // The bridge is QUOTED: the wallet sends the unpaid USDC to the provider's deposit address, once.
        BRIDGE_SENDING: {
          entry: {
            type: 'sendPayout',
            params: ({ context }) => {
              const bridge = context.bridges.at(-1)!;
              return {
                payoutId: context.id,
                send: context.sends,
                transactionId: sendTransactionId(context.id, context.sends),
                walletAddress: context.walletAddress!,
                to: bridge.depositAddress,
                amountUsdc: bridge.usdcAmount.toString(),
              };
            },
          },
          on: {
            TRANSACTION_OUTCOME: [
              { guard: 'sentMined', target: 'BRIDGING', actions: 'markBridging' },
              { guard: 'currentSendFailed', target: 'IDLE', actions: ['recordSendFailed', 'markBridgeNotSent'] },
            ],
            SEND_REFUSED: { guard: 'currentSendFailed', target: 'IDLE', actions: ['recordSendFailed', 'markBridgeNotSent'] },
          },
        },
        // The whole payout is with the provider: READY, no customer actions, until it is delivered or a refund is verified.
        BRIDGING: bridging(),
        // USDC on Base to the customer's own address, straight from the wallet (no provider): READY until it is mined.
        SENDING: {
          entry: {
            type: 'sendPayout',
            params: ({ context }) => ({
              payoutId: context.id,
              send: context.sends,
              transactionId: sendTransactionId(context.id, context.sends),
              walletAddress: context.walletAddress!,
              to: context.method!.kind === 'CRYPTO' ? context.method!.destination.address : '',
              amountUsdc: unpaidUsdc(context).toString(),
            }),
          },
          on: {
            TRANSACTION_OUTCOME: [
              { guard: 'sentMined', target: '#payout.SETTLED', actions: ['recordSent', announce('PAYOUT_ORDER_SETTLED', 'SETTLED')] },
              { guard: 'currentSendFailed', target: 'IDLE', actions: 'recordSendFailed' },
            ],
            SEND_REFUSED: { guard: 'currentSendFailed', target: 'IDLE', actions: 'recordSendFailed' },
          },
        },
        // The listing's batch is with the wallet and the chain: nothing else may send meanwhile.
        LISTING_PENDING: {
          entry: {
            type: 'listPayout',
            params: ({ context }) => {
              const method = context.method!;
              const amount = unpaidUsdc(context);
              const range = buyerRange(amount, context.listingMinUsdc);
              return {
                payoutId: context.id,
                listing: context.listings,
                walletAddress: context.walletAddress!,
                amountUsdc: amount.toString(),
                minUsdc: range.min.toString(),
                maxUsdc: range.max.toString(),
                platform: method.kind === 'FIAT' ? RAIL_PLATFORMS[method.rail] : method.rail,
                payeeId: method.kind === 'FIAT' ? method.payeeId : '',
                currency: method.kind === 'FIAT' ? method.currency : 'USD',
                rate: context.listingRate.toString(),
              };
            },
          },
          on: {
            LISTED: { guard: 'currentListing', target: '#payout.LISTING', actions: 'recordListed' },
            LISTING_FAILED: { guard: 'currentListing', target: 'IDLE', actions: 'recordListingFailed' },
          },
        },
      },
    },
    LISTING: {
      entry: { type: 'watchListing', params: ({ context }) => ({ payoutId: context.id, depositId: context.listing!.depositId }) },
      on: { SIGNED_IN: { actions: 'recordSignIn' }, ...lateFundsChecks() },
      initial: 'OPEN',
      states: {
        OPEN: {
          on: {
            CHAIN_FACT: [
              { guard: 'buyerLocks', target: '#payout.PAYING', actions: ['recordBuyer', announce('PAYOUT_ORDER_MATCHED', 'PAYING')] },
              { guard: 'buyerRate', target: '#payout.PAYING', actions: ['recordBuyer', announce('PAYOUT_ORDER_MATCHED', 'PAYING')] },
              { guard: 'withdrawnBeforeAnyPayment', target: '#payout.CANCELLED', actions: ['markWithdrawn', announce('PAYOUT_ORDER_CANCELLED', 'CANCELLED')] },
              { guard: 'withdrawnAfterPayment', target: '#payout.SETTLED', actions: ['settleWithdrawn', announce('PAYOUT_ORDER_SETTLED', 'SETTLED')] },
              { guard: 'dustSwept', target: '#payout.SETTLED', actions: ['settleSwept', announce('PAYOUT_ORDER_SETTLED', 'SETTLED')] },
              ...lateFundsFacts(),
            ],
            WITHDRAW: { target: 'EXITING', actions: 'startExit' },
            RELIST: { guard: 'relistable', target: 'EXITING', actions: 'startExit' },
            SEND_TO_ADDRESS: [
              { guard: 'sendsRemainderDirect', target: 'EXITING', actions: 'startExit' },
              { guard: 'bridgesRemainder', target: 'EXITING', actions: 'startExit' },
            ],
          },
        },
        // One batch of the wallet: withdraw the listing and, when sending, transfer the remainder on (its own DepositWithdrawn is no wallet-app withdrawal); or set a relisted range.
        EXITING: {
          entry: {
            type: 'exitListing',
            params: ({ context }) => ({
              payoutId: context.id,
              send: context.sends,
              transactionId: sendTransactionId(context.id, context.sends),
              walletAddress: context.walletAddress!,
              depositId: context.listing!.depositId,
              to: context.exit!.to,
              amountUsdc: context.exit!.amountUsdc.toString(),
              relist: context.exit!.kind === 'RELIST' ? rangeOf(context.exit!.amountUsdc, context.listingMinUsdc) : null,
            }),
          },
          on: {
            // A buyer who got in before the withdrawal was mined is still followed: what they pay is counted.
            CHAIN_FACT: [
              { guard: 'buyerLocks', actions: 'recordBuyer' },
              { guard: 'buyerRate', actions: 'recordBuyer' },
              { guard: 'buyerReleased', actions: 'releaseBuyer' },
              { guard: 'buyerPaidRest', actions: 'recordFill' },
              ...lateFundsFacts(),
            ],
            TRANSACTION_OUTCOME: [
              { guard: and(['sentMined', 'exitWithdraws']), target: '#payout.FUNDED', actions: 'recordTakenBack' },
              {
                guard: and(['sentMined', 'exitRelists', 'buyerHolds']),
                target: '#payout.PAYING',
                actions: ['recordRelisted', announce('PAYOUT_ORDER_MATCHED', 'PAYING')],
              },
              { guard: and(['sentMined', 'exitRelists']), target: 'OPEN', actions: 'recordRelisted' },
              {
                guard: and(['sentMined', 'exitSends']),
                target: '#payout.SETTLED',
                actions: ['adoptExitMethod', 'recordSent', 'clearExit', announce('PAYOUT_ORDER_SETTLED', 'SETTLED')],
              },
              { guard: and(['sentMined', 'exitBridges']), target: 'BRIDGING', actions: ['adoptExitMethod', 'markBridging'] },
              {
                guard: and(['currentSendFailed', 'buyerHolds']),
                target: '#payout.PAYING',
                actions: ['recordSendFailed', 'markBridgeNotSent', 'endExit', announce('PAYOUT_ORDER_MATCHED', 'PAYING')],
              },
              { guard: 'currentSendFailed', target: 'OPEN', actions: ['recordSendFailed', 'markBridgeNotSent', 'endExit'] },
            ],
            SEND_REFUSED: [
              {
                guard: and(['currentSendFailed', 'buyerHolds']),
                target: '#payout.PAYING',
                actions: ['recordSendFailed', 'markBridgeNotSent', 'endExit', announce('PAYOUT_ORDER_MATCHED', 'PAYING')],
              },
              { guard: 'currentSendFailed', target: 'OPEN', actions: ['recordSendFailed', 'markBridgeNotSent', 'endExit'] },
            ],
          },
        },
        // The remainder is with the provider: LISTING, no customer actions, until delivered (SETTLED) or refunded (READY).
        BRIDGING: bridging(),
      },
    },
    PAYING: {
      on: {
        SIGNED_IN: { actions: 'recordSignIn' },
        CHAIN_FACT: [
          { guard: 'buyerLocks', actions: 'recordBuyer' },
          { guard: 'buyerRate', actions: 'recordBuyer' },
          { guard: 'buyerReleased', target: 'LISTING', actions: 'releaseBuyer' },
          { guard: 'buyerPaidAllButDust', target: 'LISTING', actions: 'recordFill' },
          { guard: 'buyerPaidPart', target: 'LISTING', actions: ['recordFill', 'announcePartialPayment'] },
          { guard: 'buyerPaidRest', target: 'SETTLED', actions: ['recordFill', 'settleByBuyers', announce('PAYOUT_ORDER_SETTLED', 'SETTLED')] },
          ...lateFundsFacts(),
        ],
        ...lateFundsChecks(),
      },
    },
    SETTLED: { on: lateFunds() },
    CANCELLED: { on: lateFunds() },
    EXPIRED: { on: lateFunds() },
  },
});

/**
 * The wallet check's answer in FUNDED or READY (document 2): the USDC spent in the wallet app
 * ends the payout, CANCELLED with PEER_APP before any partial payment, SETTLED with
 * returnedAmount after one (a listing taken back, or a bridge refunded, after buyers paid part).
 */
function walletChecked() {
  return [
    { guard: 'spentBeforeAnyPayment' as const, target: '#payout.CANCELLED', actions: ['markSpent' as const, announce('PAYOUT_ORDER_CANCELLED', 'CANCELLED')] },
    { guard: 'spentAfterPayment' as const, target: '#payout.SETTLED', actions: ['settleReturned' as const, announce('PAYOUT_ORDER_SETTLED', 'SETTLED')] },
    { actions: 'acknowledge' as const },
  ];
}

/**
 * A bridge with the provider (READY's whole payout or LISTING's remainder): asked about on a
 * schedule until delivered (SETTLED) or its refund is verified on Base (READY, no webhook).
 */
function bridging() {
  return {
    entry: checkBridgeNow,
    after: { bridgePoll: { target: 'BRIDGING', reenter: true } },
    on: {
      BRIDGE_OBSERVED: [
        { guard: 'bridgeDelivered' as const, target: '#payout.SETTLED', actions: ['settleBridged' as const, announce('PAYOUT_ORDER_SETTLED', 'SETTLED')] },
        { guard: 'bridgeRefunded' as const, target: '#payout.READY', actions: 'recordBridgeRefund' as const },
        { actions: 'acknowledge' as const },
      ],
    },
  };
}

/** After funding closed: money still reaching the deposit address is looked at and recorded as a funding issue, never counted. */
function lateFunds() {
  return { ...lateFundsChecks(), CHAIN_FACT: lateFundsFacts() };
}

function lateFundsChecks() {
  return {
    CHECK_FUNDING: { actions: checkFundingNow },
    FUNDING_OBSERVED: { actions: ['recordLateObservation' as const, 'recordIssues' as const] },
  };
}

/** A fact about the wallet, not the listing: USDC may still be arriving late. */
function lateFundsFacts() {
  return [{ actions: checkFundingNow }];
}

/** A relist's range, as the escrow takes it: from the floor to what is left (at most 1,000 USDC a buyer). */
function rangeOf(left: bigint, floor: bigint): { minUsdc: string; maxUsdc: string } {
  const range = buyerRange(left, floor);
  return { minUsdc: range.min.toString(), maxUsdc: range.max.toString() };
}

/** When a fact happened: its block's time, else the payout's last. */
function factTime(fact: ListingFact, fallback: string): string {
  return fact.blockTimestamp ? new Date(Number(fact.blockTimestamp) * 1000).toISOString() : fallback;
}
