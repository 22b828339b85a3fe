/**
 * One payment attempt, as document 1's payment status table reads: CREATED, then
 * SETTLED, CANCELLED, EXPIRED or FAILED. Inside CREATED the attempt moves through
 * what the customer and the chain do: the intent being signalled on the maker's
 * deposit, the customer's payment awaited, the proof being verified by the
 * attestation service, the intent being fulfilled on chain.
 *
 * SETTLED comes only from the chain: the indexer's IntentFulfilled fact, never our
 * own belief that a transaction was sent. The fact settles the attempt from any
 * state, since an intent fulfilled on chain has moved the money whatever we thought
 * of the attempt: a late settlement still counts (document 1). The window closes an
 * attempt only while the customer has not proven a payment: once a proof is being
 * verified or fulfilled, cancelling the intent could take the customer's money.
 *
 * A chain reorganisation can take the settling fact back: the indexer delivers the same
 * fact again with `retracted` set. The settlement is then undone (the order is told to
 * stop counting it) and the attempt goes back into CREATED, AWAITING_SETTLEMENT: the
 * fulfilment was mined once, so the money moved, and the same transaction is usually
 * mined again. Only the chain ends that wait (a new IntentFulfilled fact settles it again,
 * the intent pruned fails it); the window no longer governs it, since expiring would
 * cancel an intent whose fulfilment may land again.
 *
 * On a crypto rail there is no deposit and no intent: the conversion provider quoted the
 * attempt before it was created (its request id is the railIdentifier) and delivers USDC
 * to the order's destination when the customer's token reaches its deposit address. The
 * attempt asks the provider where the transfer stands (AWAITING_TRANSFER, then CONVERTING
 * once the provider holds the customer's token), every few seconds at first and every
 * minute later. A delivery settles it, read from the settlement chain by the effect that
 * asked, short or not: a short one credits the order less (a partial fill). Once the
 * provider holds the token, neither the window nor the customer ends the attempt; before,
 * both do, and the provider's request is cancelled, so a transfer arriving later is
 * refunded by the provider, or, if it slipped in first, delivered and still counted.
 *
 * Remediation (document 1's actions, payment-remediation.ts) acts on a live fiat attempt:
 * REOPEN takes an ended attempt back to SIGNALLING with a fresh window and a new intent, and
 * announces nothing (no webhook for a reopening); EXTEND, while the customer is awaited, has the
 * intent's expiry moved on chain and the window follows it; SELLER_RECEIPT has the receipt id the
 * merchant gave verified through the maker's own session, then fulfilled like a customer's proof.
 * The attempt tells the action how it went, once, and forgets it.
 *
 * Pure: time arrives in events; effects (signalIntent, readSignal, verifyPayment,
 * fulfilIntent, cancelIntent, checkTransfer, cancelTransfer, extendIntent, readExtension) run
 * after the turn is written.
 */
import { sameHex } from '../id-hash.js';
import { and, assertEvent, assign, emit, enqueueActions, not, setup, stateIn } from 'xstate';
import { conversionOf, toCheckoutPayment, type CheckoutPayment } from './checkout-payment.js';
import { isoAfter } from '../iso-time.js';
import { settlementOf } from './penalties.js';
import {
  EXTEND_PURPOSE,
  EXTENSION_MS,
  extensionRevertCodeOf,
  outcomeOnEnd,
  signalTransactionId,
  tellAction,
  type RemediationOutcome,
} from './payment-remediation.js';
import { claimOf, newChargeback, recordsChargeback, repeatedChargeback, repeatedRecord } from './payment-chargeback.js';
import type { PaymentChargebackFact } from './chargeback-types.js';
import type { PaymentChain, PaymentChainFact, PaymentContext, PaymentEvent, PaymentInput, PaymentStatus, TransactionOutcomeMessage } from './payment-types.js';

/** The webhook events of document 1: one per public status the attempt enters. */
export type PaymentStatusEmitted = {
  type: 'PAYMENT_CREATED' | 'PAYMENT_SETTLED' | 'PAYMENT_CANCELLED' | 'PAYMENT_EXPIRED' | 'PAYMENT_FAILED';
  orderId: string;
  payment: CheckoutPayment;
};

/**
 * A settlement taken back by a chain reorganisation. Not a webhook type of document 1
 * (its list is closed): a domain event, so that whoever acted on PAYMENT_SETTLED (a
 * projection, an operator's alert, the webhook dispatcher deciding what merchants hear)
 * learns the settlement no longer stands. `payment` is the attempt as it now reads
 * (CREATED, nothing settled); `retractedFact` is the fact that no longer stands.
 */
export type PaymentRetractionEmitted = {
  type: 'PAYMENT_SETTLEMENT_RETRACTED';
  orderId: string;
  payment: CheckoutPayment;
  retractedFact: { id: string; transactionHash: string | null };
};

/** Document 1's PAYMENT_CHARGEBACKED: the payment as it now reads (still SETTLED), and the fact that charged it back. */
export type PaymentChargebackEmitted = {
  type: 'PAYMENT_CHARGEBACKED';
  orderId: string;
  payment: CheckoutPayment;
  trigger: { type: 'CHARGEBACK_APPLIED'; chargeback: PaymentChargebackFact };
};

export type PaymentEmitted = PaymentStatusEmitted | PaymentRetractionEmitted | PaymentChargebackEmitted;

/** What the order keeps of each of its payments: enough for its list fields, its lock and its search. */
export interface PaymentSummary {
  id: string;
  rail: string;
  status: PaymentStatus;
  /** The inner step of a CREATED attempt; null once it ended. */
  step: PaymentStep | null;
  railIdentifier: string | null;
  /** The customer said they sent the money, or proved it: the attempt may still settle after it ends. */
  paid: boolean;
  createdAt: string;
  /**
   * When it was last opened (its creation, or a recreate's reopening): what makes it the order's
   * newest attempt. Absent on reports from before remediation: read createdAt then.
   */
  openedAt?: string;
}

export type PaymentStep = 'SIGNALLING' | 'AWAITING_PAYMENT' | 'VERIFYING' | 'FULFILLING' | 'AWAITING_SETTLEMENT' | 'AWAITING_TRANSFER' | 'CONVERTING';

/**
 * The steps no cancel ends (the customer's, a replacement's, a newer attempt's), with what
 * the attempt is doing: cancelling could take money the customer has sent.
 */
export const UNCANCELLABLE_STEPS: Readonly<Partial<Record<string, string>>> = {
  VERIFYING: 'has a proof being verified',
  FULFILLING: 'has a proof being settled',
  AWAITING_SETTLEMENT: 'is waiting for its settlement to land on chain again',
  CONVERTING: 'has its transfer with the conversion provider, being converted',
};

export const SIGNAL_PURPOSE = 'signalIntent';
export const FULFIL_PURPOSE = 'fulfillIntent';

/**
 * How long an attempt whose settlement a reorganisation took back waits for its fulfilment
 * to be mined again before it sends the fulfilment itself once more (when it holds the
 * attestation). A reorganised transaction normally lands again within a few blocks.
 */
export const SETTLEMENT_WAIT_MS = 30 * 60 * 1000;

/**
 * How often a crypto attempt asks the provider about its transfer: every 5 seconds for its
 * first 5 minutes, when a customer who is paying pays, then every minute, so an abandoned
 * attempt costs a few hundred turns over its 6 hours rather than thousands.
 */
export const TRANSFER_POLL_MS = 5_000;
export const TRANSFER_SLOW_POLL_MS = 60_000;
export const TRANSFER_FAST_POLLS = 60;

/**
 * The webhook event of a public status. An expired attempt's is PAYMENT_EXPIRED, except on a
 * live crypto rail, where document 1 names PAYMENT_FAILED for the same case.
 */
export function statusEventOf(context: PaymentContext, status: PaymentStatus): PaymentStatusEmitted['type'] {
  if (status === 'EXPIRED' && conversionOf(context) !== null && context.chain !== null) return 'PAYMENT_FAILED';
  return `PAYMENT_${status}`;
}

function fulfilledFact(context: PaymentContext, event: PaymentEvent): event is PaymentChainFact {
  return (
    event.type === 'CHAIN_FACT' &&
    !event.fact.retracted &&
    sameHex(event.fact.intentFulfilled?.intentHash, context.railIdentifier) &&
    // A fact the chain took back never settles again, whatever redelivers it.
    !(context.retractedFactIds ?? []).includes(event.fact.id)
  );
}

/** The retraction of the very fact this attempt's settlement came from. */
function settlementRetraction(context: PaymentContext, event: PaymentEvent): boolean {
  return event.type === 'CHAIN_FACT' && event.fact.retracted === true && context.settlementFactId !== null && event.fact.id === context.settlementFactId;
}

function outcomeOf(event: PaymentEvent, purpose: string): TransactionOutcomeMessage | null {
  return event.type === 'TRANSACTION_OUTCOME' && event.purpose === purpose ? event : null;
}

/** Whether `event` is the outcome of our `purpose` transaction, ended any way but mined. */
function notMined(event: PaymentEvent, purpose: string): boolean {
  const outcome = outcomeOf(event, purpose);
  return outcome !== null && outcome.outcome.status !== 'MINED';
}

/** When an event happened: its own time, a transaction's outcome time, or a fact's block time. */
function timeOf(event: PaymentEvent): string | null {
  if ('at' in event && typeof event.at === 'string') return event.at;
  if (event.type === 'TRANSACTION_OUTCOME' && typeof event.outcome.at === 'number') return new Date(event.outcome.at).toISOString();
  if (event.type === 'CHAIN_FACT' && event.fact.blockTimestamp) return new Date(Number(event.fact.blockTimestamp) * 1000).toISOString();
  return null;
}

export const paymentMachine = setup({
  types: {
    input: {} as PaymentInput,
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    emitted: {} as PaymentEmitted,
  },
  delays: {
    // An extension re-enters CREATED: the window then runs to the new expiry, not a whole window from now.
    window: ({ context, event }) =>
      event.type === 'INTENT_EXTENDED' ? Math.max(0, Date.parse(context.quoteExpiresAt) - Date.parse(event.at)) : context.windowMs,
    settlementWait: SETTLEMENT_WAIT_MS,
    transferPoll: ({ context }) => ((context.transferPolls ?? 0) < TRANSFER_FAST_POLLS ? TRANSFER_POLL_MS : TRANSFER_SLOW_POLL_MS),
  },
  guards: {
    sandbox: ({ context }) => context.chain === null,
    live: ({ context }) => context.chain !== null,
    crypto: ({ context }) => conversionOf(context) !== null,
    fulfilled: ({ context, event }) => fulfilledFact(context, event),
    settlementRetracted: ({ context, event }) => settlementRetraction(context, event),
    pruned: ({ context, event }) =>
      event.type === 'CHAIN_FACT' && !event.fact.retracted && sameHex(event.fact.intentPruned?.intentHash, context.railIdentifier),
    signalMined: ({ event }) => outcomeOf(event, SIGNAL_PURPOSE)?.outcome.status === 'MINED',
    replacing: ({ event }) => event.type === 'CANCEL' && event.reason === 'REPLACED',
    fulfilMined: ({ event }) => outcomeOf(event, FULFIL_PURPOSE)?.outcome.status === 'MINED',
    signalFailed: ({ event }) => notMined(event, SIGNAL_PURPOSE),
    fulfilFailed: ({ event }) => notMined(event, FULFIL_PURPOSE),
    windowClosed: ({ context, event }) => (timeOf(event) ?? '') >= context.quoteExpiresAt,
    notProving: ({ context }) => context.proof === null && context.paymentProof === null && (context.sellerReceipt ?? null) === null,
    /** What remediation acts on: a live attempt on a fiat rail, with no other action under way. */
    remediable: ({ context }) => context.chain !== null && conversionOf(context) === null && (context.remediation ?? null) === null,
    extending: ({ context }) => context.remediation?.actionName === 'EXTEND',
    awaitingPayment: stateIn('#payment.CREATED.AWAITING_PAYMENT'),
    extensionMined: ({ context, event }) => context.remediation?.actionName === 'EXTEND' && outcomeOf(event, EXTEND_PURPOSE)?.outcome.status === 'MINED',
    extensionFailed: ({ context, event }) => context.remediation?.actionName === 'EXTEND' && notMined(event, EXTEND_PURPOSE),
    /** A tell to an action that had ended meanwhile (its deadline passed first): its status is final, there is nothing to do. */
    actionGone: ({ event }) => event.type === 'MESSAGE_REFUSED' && event.to.kind === 'action',
    /** The attestation the service signed is still held: the fulfilment can be sent again. */
    holdsAttestation: ({ context }) => context.paymentProof !== null,
    newChargeback: ({ context, event }) => newChargeback(context, event),
    repeatedChargeback: ({ context, event }) => repeatedChargeback(context, event),
    recordsChargeback: ({ context, event }) => recordsChargeback(context, event),
    repeatedRecord: ({ context, event }) => repeatedRecord(context, event),
  },
  actions: {
    // Effects: run by the payment kind after the turn is written (actors/payments/payment-effects.ts).
    signalIntent: (_, _params: ReturnType<typeof signalParams>) => {},
    readSignal: (_, _params: { paymentId: string; transactionHash: string | null }) => {},
    verifyPayment: (_, _params: ReturnType<typeof verifyParams>) => {},
    fulfilIntent: (_, _params: ReturnType<typeof fulfilParams>) => {},
    /** Nothing to cancel in the sandbox or before the intent's hash is known; the handler then does nothing. */
    cancelIntent: (_, _params: { paymentId: string; intentHash: string | null; chain: PaymentChain | null; reopenings: number }) => {},
    /** Checks what document 1 names before an extension is sent, then sends it, or reports EXTENSION_REFUSED. */
    extendIntent: (_, _params: ReturnType<typeof extendParams>) => {},
    /** Reads the extended intent's expiry from the chain once the extension is mined, and reports INTENT_EXTENDED. */
    readExtension: (_, _params: ReturnType<typeof extendParams>) => {},
    checkTransfer: (_, _params: ReturnType<typeof transferParams>) => {},
    /** Nothing to cancel on a fiat rail or in the sandbox (requestId null); the handler then does nothing. */
    cancelTransfer: (_, _params: ReturnType<typeof transferParams>) => {},
    countPoll: assign(({ context }) => ({ transferPolls: (context.transferPolls ?? 0) + 1 })),
    recordReceived: assign(({ context, event }) => {
      assertEvent(event, 'TRANSFER_RECEIVED');
      return {
        transferReceived: { originAmount: BigInt(event.originAmount), sourceTransactionHash: event.sourceTransactionHash },
        sentAt: context.sentAt ?? event.at,
        updatedAt: event.at,
      };
    }),
    recordTransferFailed: assign(({ event }) => {
      assertEvent(event, 'TRANSFER_FAILED');
      return { errorCode: `TRANSFER_${event.status}`, errorMessage: event.message, completedAt: event.at, updatedAt: event.at };
    }),
    tell: (_, _params: { to: { kind: string; id: string }; event: Record<string, unknown> }) => {},
    recordSignal: assign(({ event }) => {
      assertEvent(event, 'INTENT_SIGNALED');
      return { railIdentifier: event.intentHash, signalTimestamp: event.signalTimestamp, expiryTime: event.expiryTime, updatedAt: event.at };
    }),
    recordSent: assign(({ context, event }) => {
      assertEvent(event, 'MARK_SENT');
      return { sentAt: context.sentAt ?? event.at, updatedAt: event.at };
    }),
    reopen: assign(({ context, event }) => {
      assertEvent(event, 'REOPEN');
      return {
        reopenings: (context.reopenings ?? 0) + 1,
        openedAt: event.at,
        remediation: { actionId: event.actionId, actionName: 'RECREATE' as const },
        quoteExpiresAt: isoAfter(event.at, context.windowMs),
        railIdentifier: null,
        signalTimestamp: null,
        expiryTime: null,
        proof: null,
        paymentProof: null,
        sentAt: null,
        errorCode: null,
        errorMessage: null,
        completedAt: null,
        updatedAt: event.at,
      };
    }),
    startExtension: assign(({ event }) => {
      assertEvent(event, 'EXTEND');
      return { remediation: { actionId: event.actionId, actionName: 'EXTEND' as const }, updatedAt: event.at };
    }),
    /**
     * The window moves 24 hours later (document 1), never past the intent's new expiry on chain:
     * the intent outlives the window by its own period, so the two stay apart by as much.
     */
    recordExtension: assign(({ context, event }) => {
      assertEvent(event, 'INTENT_EXTENDED');
      const onChain = new Date(event.expiryTime * 1000).toISOString();
      const later = isoAfter(context.quoteExpiresAt, EXTENSION_MS);
      return { expiryTime: event.expiryTime, quoteExpiresAt: later < onChain ? later : onChain, updatedAt: event.at };
    }),
    recordSellerReceipt: assign(({ event }) => {
      assertEvent(event, 'SELLER_RECEIPT');
      return {
        remediation: { actionId: event.actionId, actionName: 'FULFILL_SAR' as const },
        sellerReceipt: { txId: event.txId },
        errorCode: null,
        errorMessage: null,
        updatedAt: event.at,
      };
    }),
    /**
     * Tells the action the attempt carries out how it went, and forgets it: what `step` reports
     * (REPORTS below), or what the attempt's end means (`ended`, payment-remediation.ts). Named,
     * not given as functions, so the chart says which.
     */
    reportRemediation: enqueueActions(({ context, event, enqueue }, params: { step?: RemediationStep; ended?: PaymentStatus }) => {
      if (!(context.remediation ?? null)) return;
      const at = timeOf(event) ?? context.updatedAt;
      const outcome = params.step
        ? REPORTS[params.step](context, event)
        : params.ended && params.ended !== 'CREATED'
          ? outcomeOnEnd(context, params.ended, at)
          : null;
      if (!outcome) return;
      // Named actions are typed only in the machine's config; the runtime reads the enqueued tell all the same.
      enqueue({ type: 'tell', params: tellAction(context, outcome) } as never);
      enqueue(assign({ remediation: null, sellerReceipt: null }));
    }),
    recordProof: assign(({ context, event }) => {
      assertEvent(event, 'SUBMIT_PROOF');
      return { proof: event.proof, sentAt: context.sentAt ?? event.at, errorCode: null, errorMessage: null, updatedAt: event.at };
    }),
    recordVerified: assign(({ context, event }) => {
      assertEvent(event, 'PAYMENT_VERIFIED');
      // The sealed material (or the receipt's id) has done its work; it is not kept past its use.
      return { proof: null, sellerReceipt: null, paymentProof: event.paymentProof, fulfilAttempts: context.fulfilAttempts + 1, updatedAt: event.at };
    }),
    recordRejected: assign(({ event }) => {
      assertEvent(event, 'VERIFICATION_REJECTED');
      return { proof: null, sellerReceipt: null, errorCode: event.code, errorMessage: event.message, updatedAt: event.at };
    }),
    recordFulfilFailed: assign(({ context, event }) => {
      const outcome = outcomeOf(event, FULFIL_PURPOSE)!;
      return {
        paymentProof: null,
        updatedAt: timeOf(event) ?? context.updatedAt,
        errorCode: 'FULFILL_INTENT_FAILED',
        errorMessage: `the fulfilment transaction ended ${outcome.outcome.status}${outcome.outcome.reason ? `: ${outcome.outcome.reason}` : ''}`,
      };
    }),
    recordSignalFailed: assign(({ event }) => {
      const outcome = outcomeOf(event, SIGNAL_PURPOSE)!;
      return {
        errorCode: 'SIGNAL_INTENT_FAILED',
        errorMessage: `the attempt could not be started on chain: signalIntent ended ${outcome.outcome.status}${outcome.outcome.reason ? ` (${outcome.outcome.reason})` : ''}`,
      };
    }),
    recordPruned: assign({ errorCode: 'INTENT_CANCELLED', errorMessage: 'the intent was cancelled on chain before any payment was proven' }),
    recordPrunedAfterRetraction: assign({
      errorCode: 'INTENT_CANCELLED',
      errorMessage: 'the intent was pruned on chain after the block of its fulfilment was reorganised away',
    }),
    recordSettlement: assign(({ context, event }) => {
      if (event.type === 'SIMULATE_PAYMENT') {
        return {
          fulfillTransaction: `sim_${context.id}`,
          netSettledUsdcAmount: context.price.netUsdc,
          creditedUsdcAmount: context.price.creditUsdc,
          completedAt: event.at,
          updatedAt: event.at,
          errorCode: null,
          errorMessage: null,
        };
      }
      if (event.type === 'TRANSFER_DELIVERED') {
        const net = BigInt(event.netUsdc);
        const fee = BigInt(event.feeUsdc);
        // Short or long of what was quoted, the delivery credits the order in proportion: a half delivery covers half the order.
        const credit = (context.price.creditUsdc * (net + fee)) / context.price.releasedUsdc;
        return {
          fulfillTransaction: event.transactionHash,
          netSettledUsdcAmount: net,
          settledFeeUsdc: fee,
          creditedUsdcAmount: credit,
          transferReceived: { originAmount: BigInt(event.originAmount), sourceTransactionHash: context.transferReceived?.sourceTransactionHash ?? null },
          sentAt: context.sentAt ?? event.at,
          completedAt: event.at,
          updatedAt: event.at,
          errorCode: null,
          errorMessage: null,
        };
      }
      assertEvent(event, 'CHAIN_FACT');
      const net = BigInt(event.fact.intentFulfilled!.amount);
      const { penalties, creditedUsdc } = settlementOf(context, net);
      const at = timeOf(event) ?? context.updatedAt;
      return {
        fulfillTransaction: event.fact.transactionHash ?? null,
        netSettledUsdcAmount: net,
        penalties,
        creditedUsdcAmount: creditedUsdc,
        settlementFactId: event.fact.id,
        completedAt: at,
        updatedAt: at,
        errorCode: null,
        errorMessage: null,
      };
    }),
    /**
     * The settlement taken back: nothing counts as settled any more. A retraction carries
     * no time of its own (it repeats the block time of the fact it takes back) and the
     * machine has no clock, so updatedAt stays the last time the attempt knew.
     */
    recordRetraction: assign(({ context, event }) => {
      assertEvent(event, 'CHAIN_FACT');
      return {
        fulfillTransaction: null,
        netSettledUsdcAmount: null,
        penalties: [],
        creditedUsdcAmount: null,
        settlementFactId: null,
        retractedFactIds: [...(context.retractedFactIds ?? []), event.fact.id],
        completedAt: null,
        errorCode: 'SETTLEMENT_RETRACTED',
        errorMessage: `the block that settled this payment (fulfilment ${event.fact.transactionHash ?? 'unknown'}) was reorganised away; waiting for the fulfilment to be mined again`,
      };
    }),
    /** A new fulfilment transaction, under its own id, with the attestation still held. */
    recordRefulfil: assign(({ context }) => ({ fulfilAttempts: context.fulfilAttempts + 1 })),
    /**
     * Takes a message and changes nothing. A transition with neither target nor action is
     * not taken as far as xstate's can() goes, and the runtime refuses what is not taken.
     */
    acknowledge: assign(() => ({})),
    markEnded: assign(({ context, event }) => {
      const at = timeOf(event) ?? context.updatedAt;
      return { completedAt: at, updatedAt: at };
    }),
    markExpired: assign(({ context }) => ({ completedAt: context.quoteExpiresAt, updatedAt: context.quoteExpiresAt })),
    announce: emit(({ context }, params: { status: PaymentStatus }) => ({
      type: statusEventOf(context, params.status),
      orderId: context.orderId,
      payment: toCheckoutPayment(context, params.status, { hosted: false }),
    })),
    /** The chain's record kept, and told to the order, which answers with the whole fact (payment-chargeback.ts). */
    recordChargebackClaim: enqueueActions(({ context, event, enqueue }) => {
      const claim = claimOf(context, event);
      enqueue(assign({ chargebackClaim: claim }));
      enqueue({ type: 'tell', params: { to: { kind: 'order', id: context.orderId }, event: { type: 'APPLY_CHARGEBACK', claim } } } as never);
    }),
    recordChargeback: assign(({ event }) => {
      assertEvent(event, 'CHARGEBACK_RECORDED');
      return { chargeback: event.chargeback };
    }),
    announceChargeback: emit(({ context }) => ({
      type: 'PAYMENT_CHARGEBACKED' as const,
      orderId: context.orderId,
      payment: toCheckoutPayment(context, 'SETTLED', { hosted: false }),
      trigger: { type: 'CHARGEBACK_APPLIED' as const, chargeback: context.chargeback! },
    })),
    announceRetraction: emit(({ context, event }) => {
      assertEvent(event, 'CHAIN_FACT');
      return {
        type: 'PAYMENT_SETTLEMENT_RETRACTED' as const,
        orderId: context.orderId,
        payment: toCheckoutPayment(context, 'CREATED', { hosted: false }),
        retractedFact: { id: event.fact.id, transactionHash: event.fact.transactionHash ?? null },
      };
    }),
  },
}).createMachine({
  id: 'payment',
  context: ({ input }) => {
    const { at, ...payment } = input;
    return {
      ...payment,
      quoteExpiresAt: isoAfter(at, input.windowMs),
      // A crypto attempt is registered with the provider before it is created; a fiat one once its intent is signalled.
      railIdentifier: input.chain === null ? `sim_${input.id}` : (input.conversion?.requestId ?? null),
      signalTimestamp: null,
      expiryTime: null,
      proof: null,
      paymentProof: null,
      fulfilAttempts: 0,
      sentAt: null,
      fulfillTransaction: null,
      netSettledUsdcAmount: null,
      penalties: [],
      creditedUsdcAmount: null,
      settlementFactId: null,
      retractedFactIds: [],
      transferPolls: 0,
      transferReceived: null,
      settledFeeUsdc: null,
      errorCode: null,
      errorMessage: null,
      completedAt: null,
      createdAt: at,
      updatedAt: at,
      reopenings: 0,
      openedAt: at,
      remediation: null,
      sellerReceipt: null,
      chargebackClaim: null,
      chargeback: null,
    };
  },
  on: {
    MESSAGE_REFUSED: { guard: 'actionGone', actions: 'acknowledge' },
  },
  initial: 'CREATED',
  states: {
    CREATED: {
      initial: 'STARTING',
      after: {
        window: [
          // While a proof is verified or fulfilled, or a fulfilment a reorganisation took back may land again,
          // the window no longer governs: see the file's note.
          {
            guard: and(['notProving', not(stateIn('#payment.CREATED.AWAITING_SETTLEMENT')), not(stateIn('#payment.CREATED.CONVERTING'))]),
            target: 'EXPIRED',
            actions: 'markExpired',
          },
        ],
      },
      on: {
        CHAIN_FACT: [
          { guard: 'fulfilled', target: 'SETTLED', actions: 'recordSettlement' },
          { guard: 'pruned', target: 'FAILED', actions: ['recordPruned', 'markEnded'] },
        ],
        // An extension's transaction, whatever the attempt is doing meanwhile: the states' own outcomes are their transactions'.
        TRANSACTION_OUTCOME: [
          { guard: 'extensionMined', actions: { type: 'readExtension', params: ({ context }) => extendParams(context) } },
          { guard: 'extensionFailed', actions: { type: 'reportRemediation', params: { step: 'extensionReverted' } } },
        ],
        INTENT_EXTENDED: [
          // Still awaiting the customer: CREATED is entered again, so the window runs to the new expiry.
          {
            guard: and(['extending', 'awaitingPayment']),
            target: '#payment.CREATED.AWAITING_PAYMENT',
            reenter: true,
            actions: ['recordExtension', { type: 'reportRemediation', params: { step: 'extended' } }],
          },
          // A proof arrived meanwhile: the window no longer governs, the intent's expiry still moved.
          { guard: 'extending', actions: ['recordExtension', { type: 'reportRemediation', params: { step: 'extended' } }] },
        ],
        EXTENSION_REFUSED: {
          guard: 'extending',
          actions: { type: 'reportRemediation', params: { step: 'extensionRefused' } },
        },
      },
      states: {
        STARTING: {
          // Announced here, not on CREATED's entry: a retracted settlement enters CREATED again, and no attempt is created then.
          entry: { type: 'announce', params: { status: 'CREATED' } },
          always: [{ guard: 'sandbox', target: 'AWAITING_PAYMENT' }, { guard: 'crypto', target: 'AWAITING_TRANSFER' }, { target: 'SIGNALLING' }],
        },
        // Crypto rails: the customer sends the token to the provider's deposit address; the provider is asked where it stands.
        AWAITING_TRANSFER: {
          entry: [{ type: 'checkTransfer', params: ({ context }) => transferParams(context) }, report('CREATED', 'AWAITING_TRANSFER')],
          after: { transferPoll: { target: 'AWAITING_TRANSFER', reenter: true, actions: 'countPoll' } },
          on: {
            MARK_SENT: { actions: ['recordSent', report('CREATED', 'AWAITING_TRANSFER')] },
            CANCEL: { target: '#payment.CANCELLED', actions: 'markEnded' },
            TRANSFER_RECEIVED: { target: 'CONVERTING', actions: 'recordReceived' },
            ...transferEnds(),
          },
        },
        // The provider holds the customer's token: only its delivery or its failure ends the attempt now.
        CONVERTING: {
          entry: [{ type: 'checkTransfer', params: ({ context }) => transferParams(context) }, report('CREATED', 'CONVERTING')],
          after: { transferPoll: { target: 'CONVERTING', reenter: true, actions: 'countPoll' } },
          on: {
            MARK_SENT: { actions: 'acknowledge' },
            TRANSFER_RECEIVED: { actions: 'acknowledge' },
            ...transferEnds(),
          },
        },
        SIGNALLING: {
          entry: [{ type: 'signalIntent', params: ({ context }) => signalParams(context) }, report('CREATED', 'SIGNALLING')],
          on: {
            CANCEL: { target: '#payment.CANCELLED', actions: 'markEnded' },
            TRANSACTION_OUTCOME: [
              { guard: 'signalMined', target: 'READING_SIGNAL' },
              { guard: 'signalFailed', target: '#payment.FAILED', actions: ['recordSignalFailed', 'markEnded'] },
            ],
          },
        },
        READING_SIGNAL: {
          entry: { type: 'readSignal', params: ({ context, event }) => readSignalParams(context, event) },
          on: {
            INTENT_SIGNALED: {
              target: 'AWAITING_PAYMENT',
              // A reopening succeeded once its new intent is live on chain.
              actions: ['recordSignal', { type: 'reportRemediation', params: { step: 'reopened' } }],
            },
            CANCEL: { target: '#payment.CANCELLED', actions: 'markEnded' },
          },
        },
        AWAITING_PAYMENT: {
          entry: report('CREATED', 'AWAITING_PAYMENT'),
          on: {
            MARK_SENT: { actions: ['recordSent', report('CREATED', 'AWAITING_PAYMENT')] },
            // Only before a proof: once one is being checked or fulfilled, cancelling could take the customer's money.
            CANCEL: { target: '#payment.CANCELLED', actions: 'markEnded' },
            SUBMIT_PROOF: { guard: 'live', target: 'VERIFYING', actions: 'recordProof' },
            SIMULATE_PAYMENT: { guard: 'sandbox', target: '#payment.SETTLED', actions: 'recordSettlement' },
            EXTEND: {
              guard: 'remediable',
              actions: ['startExtension', { type: 'extendIntent', params: ({ context }) => extendParams(context) }],
            },
            SELLER_RECEIPT: { guard: 'remediable', target: 'VERIFYING', actions: 'recordSellerReceipt' },
          },
        },
        VERIFYING: {
          entry: [{ type: 'verifyPayment', params: ({ context }) => verifyParams(context) }, report('CREATED', 'VERIFYING')],
          on: {
            PAYMENT_VERIFIED: { target: 'FULFILLING', actions: 'recordVerified' },
            VERIFICATION_REJECTED: [
              // The window closed while the proof was checked, and the proof did not hold: the attempt ends as it would have.
              { guard: 'windowClosed', target: '#payment.EXPIRED', actions: ['recordRejected', 'markExpired'] },
              // A receipt id the seller path could not match ends its action: the merchant gave a wrong or unverifiable id.
              { target: 'AWAITING_PAYMENT', actions: [{ type: 'reportRemediation', params: { step: 'receiptRejected' } }, 'recordRejected'] },
            ],
          },
        },
        FULFILLING: {
          entry: [{ type: 'fulfilIntent', params: ({ context }) => fulfilParams(context) }, report('CREATED', 'FULFILLING')],
          on: {
            // The customer may offer the proof again: the service signs the same payment for the same intent again.
            TRANSACTION_OUTCOME: [
              { guard: and(['fulfilFailed', 'windowClosed']), target: '#payment.EXPIRED', actions: ['recordFulfilFailed', 'markExpired'] },
              {
                guard: 'fulfilFailed',
                target: 'AWAITING_PAYMENT',
                actions: [{ type: 'reportRemediation', params: { step: 'fulfilReverted' } }, 'recordFulfilFailed'],
              },
              // Mined, the indexed fact settles it: the receipt itself proves nothing.
              { guard: 'fulfilMined', actions: 'acknowledge' },
            ],
          },
        },
        // The settling fact was retracted: its block was reorganised away. The money moved once, and the same
        // transaction is usually mined again; CREATED's facts settle (a new IntentFulfilled) or fail (pruned) it.
        AWAITING_SETTLEMENT: {
          entry: ['announceRetraction', retractFromOrder(), report('CREATED', 'AWAITING_SETTLEMENT')],
          after: {
            // Still nothing: the transaction may have left every mempool. Ours is sent again, once; a release by
            // someone else (the maker's) is theirs to send. Either way the attempt waits for the chain: never expired.
            settlementWait: {
              guard: 'holdsAttestation',
              actions: ['recordRefulfil', { type: 'fulfilIntent', params: ({ context }) => fulfilParams(context) }],
            },
          },
          on: {
            CHAIN_FACT: { guard: 'pruned', target: '#payment.FAILED', actions: ['recordPrunedAfterRetraction', 'markEnded'] },
            // The fulfilment sent again: mined, the fact will settle it; failed, the original landed or the intent is gone,
            // and the fact will say which. The failure shows on the hosted view meanwhile.
            TRANSACTION_OUTCOME: [
              { guard: 'fulfilFailed', actions: 'recordFulfilFailed' },
              { guard: 'fulfilMined', actions: 'acknowledge' },
            ],
          },
        },
      },
    },
    SETTLED: {
      entry: [
        { type: 'announce', params: { status: 'SETTLED' } },
        applyToOrder(),
        report('SETTLED'),
        { type: 'reportRemediation', params: { ended: 'SETTLED' } },
      ],
      on: {
        CHAIN_FACT: [
          // A reorganisation removed the block of the fact that settled it; a retraction of any other fact changes nothing.
          { guard: 'settlementRetracted', target: '#payment.CREATED.AWAITING_SETTLEMENT', actions: 'recordRetraction' },
          // A chargeback never changes status: kept and told to the order, announced once the order answers.
          { guard: 'newChargeback', actions: 'recordChargebackClaim' },
          { guard: 'repeatedChargeback', actions: 'acknowledge' },
        ],
        CHARGEBACK_RECORDED: [
          { guard: 'recordsChargeback', actions: ['recordChargeback', 'announceChargeback'] },
          { guard: 'repeatedRecord', actions: 'acknowledge' },
        ],
        ...endedQuietly(),
        TRANSFER_RECEIVED: { actions: 'acknowledge' },
        TRANSFER_DELIVERED: { actions: 'acknowledge' },
        TRANSFER_FAILED: { actions: 'acknowledge' },
      },
    },
    EXPIRED: {
      entry: [
        { type: 'announce', params: { status: 'EXPIRED' } },
        cancelIntent(),
        cancelTransfer(),
        report('EXPIRED'),
        { type: 'reportRemediation', params: { ended: 'EXPIRED' } },
      ],
      on: {
        ...lateFacts(),
        // Document 1's recreate: a new intent, a fresh window, no webhook for the reopening.
        REOPEN: { guard: 'remediable', target: '#payment.CREATED.SIGNALLING', actions: 'reopen' },
      },
    },
    CANCELLED: {
      entry: [
        { type: 'announce', params: { status: 'CANCELLED' } },
        cancelIntent(),
        cancelTransfer(),
        report('CANCELLED'),
        { type: 'reportRemediation', params: { ended: 'CANCELLED' } },
      ],
      on: {
        ...lateFacts(),
        // Document 1's recreate: a new intent, a fresh window, no webhook for the reopening.
        REOPEN: { guard: 'remediable', target: '#payment.CREATED.SIGNALLING', actions: 'reopen' },
      },
    },
    FAILED: {
      entry: [
        { type: 'announce', params: { status: 'FAILED' } },
        cancelIntent(),
        cancelTransfer(),
        report('FAILED'),
        { type: 'reportRemediation', params: { ended: 'FAILED' } },
      ],
      on: {
        ...lateFacts(),
        // Document 1's recreate: a new intent, a fresh window, no webhook for the reopening.
        REOPEN: { guard: 'remediable', target: '#payment.CREATED.SIGNALLING', actions: 'reopen' },
      },
    },
  },
});

/**
 * What an ended attempt still hears from the chain: a fulfilment settles it (the money
 * moved), and an intent whose signal lands only now is recorded and cancelled at once.
 */
function lateFacts() {
  return {
    CHAIN_FACT: { guard: 'fulfilled' as const, target: '#payment.SETTLED', actions: 'recordSettlement' as const },
    INTENT_SIGNALED: { actions: ['recordSignal' as const, cancelIntent()] },
    // A transfer that reached the provider before its request was cancelled is delivered all the same: it counts.
    TRANSFER_DELIVERED: { target: '#payment.SETTLED', actions: 'recordSettlement' as const },
    TRANSFER_RECEIVED: { actions: 'acknowledge' as const },
    TRANSFER_FAILED: { actions: 'acknowledge' as const },
    ...endedQuietly(),
    TRANSACTION_OUTCOME: [
      {
        guard: 'signalMined' as const,
        actions: {
          type: 'readSignal' as const,
          params: ({ context, event }: { context: PaymentContext; event: PaymentEvent }) => readSignalParams(context, event),
        },
      },
      { actions: 'acknowledge' as const },
    ],
  };
}

/**
 * What an attempt that has ended takes without changing: a replacement's cancel (it ended
 * meanwhile, nothing is left to cancel) and the outcomes of its own transactions (a
 * fulfilment's receipt after its fact settled it, the end of the intent's cancel). Taken,
 * not refused, so none of them becomes a dead letter.
 */
function endedQuietly() {
  return {
    CANCEL: { guard: 'replacing' as const, actions: 'acknowledge' as const },
    TRANSACTION_OUTCOME: { actions: 'acknowledge' as const },
  };
}

/** Tells the order where this attempt stands, for its list fields, its amount lock and its search. */
function report(status: PaymentStatus, step: PaymentStep | null = null) {
  return {
    type: 'tell' as const,
    params: ({ context }: { context: PaymentContext }) => {
      const payment: PaymentSummary = {
        id: context.id,
        rail: context.rail,
        status,
        step,
        railIdentifier: context.railIdentifier,
        paid: context.sentAt !== null,
        createdAt: context.createdAt,
        openedAt: context.openedAt ?? context.createdAt,
      };
      return { to: { kind: 'order', id: context.orderId }, event: { type: 'PAYMENT_UPDATED', payment } };
    },
  };
}

/** The settlement taken back: the order stops counting it (a payment it holds no settlement of changes nothing). */
function retractFromOrder() {
  return {
    type: 'tell' as const,
    params: ({ context }: { context: PaymentContext }) => ({
      to: { kind: 'order', id: context.orderId },
      event: { type: 'RETRACT_SETTLEMENT', paymentId: context.id, at: context.updatedAt },
    }),
  };
}

/** The settlement, counted against the order once: the order refuses a payment id it has applied. */
function applyToOrder() {
  return {
    type: 'tell' as const,
    params: ({ context }: { context: PaymentContext }) => ({
      to: { kind: 'order', id: context.orderId },
      event: { type: 'APPLY_SETTLEMENT', paymentId: context.id, usdcAmount: context.creditedUsdcAmount, at: context.completedAt },
    }),
  };
}

/** What ends a crypto attempt from the provider's side: its delivery (settled) or its failure. */
function transferEnds() {
  return {
    TRANSFER_DELIVERED: { target: '#payment.SETTLED', actions: 'recordSettlement' as const },
    TRANSFER_FAILED: { target: '#payment.FAILED', actions: 'recordTransferFailed' as const },
  };
}

function cancelIntent() {
  return {
    type: 'cancelIntent' as const,
    // A crypto attempt's railIdentifier is the provider's request, not an intent.
    params: ({ context }: { context: PaymentContext }) => ({
      paymentId: context.id,
      intentHash: conversionOf(context) ? null : context.railIdentifier,
      chain: context.chain,
      reopenings: context.reopenings ?? 0,
    }),
  };
}

function cancelTransfer() {
  return { type: 'cancelTransfer' as const, params: ({ context }: { context: PaymentContext }) => transferParams(context) };
}

/** What the provider is asked about: the request of a live crypto attempt (null otherwise), and what the delivery must look like on chain. */
function transferParams(context: PaymentContext) {
  const conversion = conversionOf(context);
  return {
    paymentId: context.id,
    requestId: context.chain !== null && conversion ? conversion.requestId : null,
    received: (context.transferReceived ?? null) !== null,
    recipient: conversion?.recipient ?? null,
    feeRecipient: conversion?.feeRecipient ?? null,
    chain: context.chain,
  };
}

function readSignalParams(context: PaymentContext, event: PaymentEvent) {
  return { paymentId: context.id, transactionHash: outcomeOf(event, SIGNAL_PURPOSE)?.outcome.hash ?? null };
}

function verifyParams(context: PaymentContext) {
  return {
    paymentId: context.id,
    platform: context.quote.processorName,
    proof: context.proof,
    /** Set when a fulfil action gave the customer's receipt id: the seller path verifies it, not a proof of the customer's. */
    sellerTxId: context.sellerReceipt?.txId ?? null,
    intent: {
      intentHash: context.railIdentifier,
      amount: context.price.releasedUsdc.toString(),
      fiatCurrency: context.quote.fiatCurrencyCode,
      payeeDetails: context.quote.payeeDetails,
      conversionRate: context.quote.conversionRate.toString(),
      signalTimestamp: context.signalTimestamp,
      expiryTime: context.expiryTime ?? null,
      disputeProtection: context.quote.disputeProtection === true,
    },
    chain: context.chain,
  };
}

type RemediationStep = keyof typeof REPORTS;

/** The reports of remediation's steps, as outcomes for the action (payment-remediation.ts). */
const REPORTS = {
  reopened,
  extended,
  extensionRefused,
  extensionReverted,
  receiptRejected,
  fulfilReverted,
} satisfies Record<string, (context: PaymentContext, event: PaymentEvent) => RemediationOutcome | null>;

function reopened(context: PaymentContext, event: PaymentEvent): RemediationOutcome | null {
  if (context.remediation?.actionName !== 'RECREATE' || event.type !== 'INTENT_SIGNALED') return null;
  return { type: 'ACTION_SUCCEEDED', result: { intentHash: event.intentHash }, at: event.at };
}

/** The new window's end: confirmed, since the intent on chain lasts at least as long. */
function extended(context: PaymentContext, event: PaymentEvent): RemediationOutcome | null {
  if (event.type !== 'INTENT_EXTENDED') return null;
  return { type: 'ACTION_SUCCEEDED', result: { confirmedExpiryTime: context.quoteExpiresAt }, at: event.at };
}

function extensionRefused(context: PaymentContext, event: PaymentEvent): RemediationOutcome | null {
  if (event.type !== 'EXTENSION_REFUSED') return null;
  return { type: 'ACTION_FAILED', code: event.code, message: event.message, at: event.at };
}

function extensionReverted(context: PaymentContext, event: PaymentEvent): RemediationOutcome | null {
  const outcome = outcomeOf(event, EXTEND_PURPOSE);
  if (!outcome) return null;
  return {
    type: 'ACTION_FAILED',
    code: outcome.outcome.status === 'FAILED' ? extensionRevertCodeOf(outcome.outcome.reason) : 'INTENT_EXTENSION_TRANSACTION_REVERTED',
    message: `the extension transaction ended ${outcome.outcome.status}${outcome.outcome.reason ? `: ${outcome.outcome.reason}` : ''}`,
    at: timeOf(event) ?? context.updatedAt,
  };
}

function receiptRejected(context: PaymentContext, event: PaymentEvent): RemediationOutcome | null {
  if (context.remediation?.actionName !== 'FULFILL_SAR' || event.type !== 'VERIFICATION_REJECTED') return null;
  return { type: 'ACTION_FAILED', code: 'REMEDIATION_FAILED', message: `the receipt id could not be verified: ${event.message}`, at: event.at };
}

function fulfilReverted(context: PaymentContext, event: PaymentEvent): RemediationOutcome | null {
  const outcome = outcomeOf(event, FULFIL_PURPOSE);
  if (context.remediation?.actionName !== 'FULFILL_SAR' || !outcome) return null;
  return {
    type: 'ACTION_FAILED',
    code: 'FULFILL_FAILED',
    message: `the settlement transaction ended ${outcome.outcome.status}${outcome.outcome.reason ? `: ${outcome.outcome.reason}` : ''}`,
    at: timeOf(event) ?? context.updatedAt,
  };
}

function extendParams(context: PaymentContext) {
  return {
    paymentId: context.id,
    actionId: context.remediation?.actionId ?? '',
    intentHash: context.railIdentifier,
    chain: context.chain,
    reopenings: context.reopenings ?? 0,
    /** The attempt's creation: its 5-day lifetime counts from there, to the end of its window. */
    createdAt: context.createdAt,
    quoteExpiresAt: context.quoteExpiresAt,
  };
}

function fulfilParams(context: PaymentContext) {
  return {
    paymentId: context.id,
    attempt: context.fulfilAttempts,
    intentHash: context.railIdentifier,
    paymentProof: context.paymentProof,
    chain: context.chain,
  };
}

function signalParams(context: PaymentContext) {
  return {
    paymentId: context.id,
    transactionId: signalTransactionId(context.id, context.reopenings ?? 0),
    chain: context.chain,
    depositId: context.quote.depositId,
    amount: context.price.releasedUsdc.toString(),
    to: context.quote.toAddress,
    paymentMethod: context.quote.processorName,
    fiatCurrency: context.quote.fiatCurrencyCode,
    conversionRate: context.quote.conversionRate.toString(),
    platformFeeBps: context.fees.platformFeeBps,
  };
}
