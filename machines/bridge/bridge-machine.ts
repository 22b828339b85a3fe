/**
 * One payment bridge (docs/bridges.md): the net USDC of a settled payment of a bridged order,
 * from the platform's bridge wallet on Base to the order's destination through the conversion
 * provider. Pure: the provider's answers and the wallet's sends arrive as reports of the kind's
 * effects, each stamped with its attempt, so a late report of an earlier attempt changes nothing.
 *
 * PENDING: an attempt is quoted (QUOTING), then its USDC sent to the provider's deposit address
 * (SENDING, asked again every poll until the send is mined). SUBMITTED: the provider has the
 * USDC; it is asked where the bridge stands every poll. COMPLETED: delivered. An attempt that
 * fails (a refused quote, a reverted send, the provider giving the USDC back) is tried again
 * after a backoff, MAX_ATTEMPTS in all; then FAILED, and the USDC goes back to the merchant's
 * wallet on Base (REFUNDING, then REFUNDED). Each of the four statuses is announced as its
 * PAYMENT_BRIDGE_* event when entered, so a retry announces PENDING and SUBMITTED again, and told
 * to the bridge's order (BRIDGE_UPDATED), which keeps it for a chargeback of the payment
 * (PaymentChargebackFact's bridgeOrSweepOverlap, docs/chargebacks.md).
 */
import { assertEvent, assign, emit, enqueueActions, setup } from 'xstate';
import type {
  BridgeAttempt,
  BridgeContext,
  BridgeEvent,
  BridgeInput,
  BridgeStatus,
  CheckBridgeParams,
  QuoteBridgeParams,
  RefundBridgeParams,
  SendBridgeParams,
} from './bridge-types.js';
import { toPaymentBridge, type PaymentBridge } from './bridge-view.js';

/** Tries of the provider before the USDC goes back to the merchant. */
export const MAX_ATTEMPTS = 3;
/** The wait before the second try; doubled before each next one (1 then 2 minutes). */
export const RETRY_BASE_MS = 60_000;
/** How often a send or the provider is asked again while nothing was heard. */
export const BRIDGE_POLL_MS = 15_000;

export type BridgeEmitted = {
  type: `PAYMENT_BRIDGE_${BridgeStatus}`;
  orderId: string;
  paymentId: string;
  paymentBridge: PaymentBridge;
};

const current = (context: BridgeContext) => context.attempts.at(-1)!;
/** The attempts, the current (last) one changed by `change`: every report of a try is about the current one. */
const withCurrent = (context: BridgeContext, change: Partial<BridgeAttempt>) =>
  context.attempts.map((attempt, index, all) => (index === all.length - 1 ? { ...attempt, ...change } : attempt));

/** How long after a failed try the next one starts: the base, doubled for each try made. */
const backoffMs = (context: BridgeContext) => RETRY_BASE_MS * 2 ** (context.attempts.length - 1);

const isCurrent = ({ context, event }: { context: BridgeContext; event: BridgeEvent }) => 'attempt' in event && event.attempt === current(context).number;

export const bridgeMachine = setup({
  types: { input: {} as BridgeInput, context: {} as BridgeContext, events: {} as BridgeEvent, emitted: {} as BridgeEmitted },
  delays: {
    poll: BRIDGE_POLL_MS,
    backoff: ({ context }) => backoffMs(context),
  },
  guards: {
    isCurrent,
    retriesLeft: ({ context, event }) => isCurrent({ context, event }) && context.attempts.length < MAX_ATTEMPTS,
  },
  actions: {
    // Effects, run by the bridge kind after the write (actors/bridges/bridge-effects.ts).
    quoteBridge: (_, _params: QuoteBridgeParams) => {},
    sendBridge: (_, _params: SendBridgeParams) => {},
    checkBridge: (_, _params: CheckBridgeParams) => {},
    refundBridge: (_, _params: RefundBridgeParams) => {},
    tell: (_, _params: { to: { kind: string; id: string }; event: Record<string, unknown> }) => {},
    tellOrder: enqueueActions(({ context, enqueue }, params: { status: BridgeStatus }) => {
      const event = { type: 'BRIDGE_UPDATED', paymentId: context.paymentId, paymentBridgeId: context.id, status: params.status, at: context.updatedAt };
      // Named actions are typed only in the machine's config; the runtime reads the enqueued tell all the same.
      enqueue({ type: 'tell', params: { to: { kind: 'order', id: context.orderId }, event } } as never);
    }),
    announce: emit(({ context }, params: { status: BridgeStatus }) => ({
      type: `PAYMENT_BRIDGE_${params.status}` as const,
      orderId: context.orderId,
      paymentId: context.paymentId,
      paymentBridge: toPaymentBridge(context, params.status),
    })),
    recordQuote: assign(({ context, event }) => {
      assertEvent(event, 'BRIDGE_QUOTED');
      const attempts = withCurrent(context, { requestId: event.requestId, depositAddress: event.depositAddress, estimatedAmount: event.estimatedAmount });
      return { attempts, updatedAt: event.at };
    }),
    recordSent: assign(({ context, event }) => {
      assertEvent(event, 'BRIDGE_SENT');
      return { attempts: withCurrent(context, { sourceTxHash: event.sourceTxHash }), submittedAt: event.at, updatedAt: event.at };
    }),
    complete: assign(({ context, event }) => {
      assertEvent(event, 'BRIDGE_DELIVERED');
      return {
        attempts: withCurrent(context, { endedAt: event.at }),
        deliveredAmount: event.deliveredAmount,
        destinationTxHash: event.destinationTxHash,
        completedAt: event.at,
        updatedAt: event.at,
      };
    }),
    failAttempt: assign(({ context, event }) => {
      assertEvent(event, 'BRIDGE_ATTEMPT_FAILED');
      const attempts = withCurrent(context, { failureReason: event.reason, endedAt: event.at });
      // The provider's refund to the bridge wallet, less its fee, is what the next try (or the merchant's refund) has.
      const availableUsdc = event.returnedUsdc ?? context.availableUsdc;
      return { attempts, availableUsdc, failureReason: event.reason, updatedAt: event.at };
    }),
    startAttempt: assign(({ context }) => {
      const at = current(context).endedAt ?? context.updatedAt;
      const startedAt = new Date(Date.parse(at) + backoffMs(context)).toISOString();
      return { attempts: [...context.attempts, newAttempt(context.attempts.length + 1, context.availableUsdc, startedAt)], updatedAt: startedAt };
    }),
    fail: assign(({ context, event }) => {
      assertEvent(event, 'BRIDGE_ATTEMPT_FAILED');
      return { failedAt: event.at, refund: { to: context.refundAddress, amountUsdc: context.availableUsdc, txHash: null, at: null } };
    }),
    recordRefund: assign(({ context, event }) => {
      assertEvent(event, 'BRIDGE_REFUNDED');
      return { refund: { ...context.refund!, txHash: event.txHash, at: event.at }, updatedAt: event.at };
    }),
  },
}).createMachine({
  id: 'bridge',
  context: ({ input }) => {
    const { at, ...bridge } = input;
    return {
      ...bridge,
      attempts: [newAttempt(1, input.amountUsdc, at)],
      availableUsdc: input.amountUsdc,
      deliveredAmount: null,
      destinationTxHash: null,
      failureReason: null,
      refund: null,
      createdAt: at,
      submittedAt: null,
      completedAt: null,
      failedAt: null,
      updatedAt: at,
    };
  },
  initial: 'PENDING',
  states: {
    PENDING: {
      entry: [
        { type: 'announce', params: { status: 'PENDING' } },
        { type: 'tellOrder', params: { status: 'PENDING' } },
      ],
      initial: 'QUOTING',
      states: {
        QUOTING: {
          entry: {
            type: 'quoteBridge',
            params: ({ context }) => ({
              bridgeId: context.id,
              attempt: current(context).number,
              environment: context.environment,
              usdcAmount: current(context).usdcAmount.toString(),
              destinationChainId: context.destination.chainId,
              destinationToken: context.destination.token,
              destinationAddress: context.destination.address,
            }),
          },
          on: { BRIDGE_QUOTED: { guard: 'isCurrent', target: 'SENDING', actions: 'recordQuote' } },
        },
        SENDING: {
          entry: {
            type: 'sendBridge',
            params: ({ context }) => ({
              bridgeId: context.id,
              attempt: current(context).number,
              environment: context.environment,
              depositAddress: current(context).depositAddress!,
              usdcAmount: current(context).usdcAmount.toString(),
            }),
          },
          after: { poll: { target: 'SENDING', reenter: true } },
          on: { BRIDGE_SENT: { guard: 'isCurrent', target: '#bridge.SUBMITTED', actions: 'recordSent' } },
        },
      },
      on: {
        BRIDGE_ATTEMPT_FAILED: [
          { guard: 'retriesLeft', target: 'RETRYING', actions: 'failAttempt' },
          { guard: 'isCurrent', target: 'FAILED', actions: ['failAttempt', 'fail'] },
        ],
      },
    },
    /** Shown as PENDING: the next try waits for its backoff on the actor's clock. */
    RETRYING: {
      after: { backoff: { target: 'PENDING', actions: 'startAttempt' } },
    },
    SUBMITTED: {
      entry: [
        { type: 'announce', params: { status: 'SUBMITTED' } },
        { type: 'tellOrder', params: { status: 'SUBMITTED' } },
      ],
      initial: 'WATCHING',
      states: {
        WATCHING: {
          entry: {
            type: 'checkBridge',
            params: ({ context }) => ({
              bridgeId: context.id,
              attempt: current(context).number,
              environment: context.environment,
              requestId: current(context).requestId!,
            }),
          },
          after: { poll: { target: 'WATCHING', reenter: true } },
        },
      },
      on: {
        BRIDGE_DELIVERED: { guard: 'isCurrent', target: 'COMPLETED', actions: 'complete' },
        BRIDGE_ATTEMPT_FAILED: [
          { guard: 'retriesLeft', target: 'RETRYING', actions: 'failAttempt' },
          { guard: 'isCurrent', target: 'FAILED', actions: ['failAttempt', 'fail'] },
        ],
      },
    },
    COMPLETED: {
      type: 'final',
      entry: [
        { type: 'announce', params: { status: 'COMPLETED' } },
        { type: 'tellOrder', params: { status: 'COMPLETED' } },
      ],
    },
    FAILED: {
      entry: [
        { type: 'announce', params: { status: 'FAILED' } },
        { type: 'tellOrder', params: { status: 'FAILED' } },
      ],
      initial: 'REFUNDING',
      states: {
        REFUNDING: {
          entry: {
            type: 'refundBridge',
            params: ({ context }) => ({
              bridgeId: context.id,
              environment: context.environment,
              to: context.refund!.to,
              usdcAmount: context.refund!.amountUsdc.toString(),
            }),
          },
          after: { poll: { target: 'REFUNDING', reenter: true } },
          on: { BRIDGE_REFUNDED: { target: 'REFUNDED', actions: 'recordRefund' } },
        },
        REFUNDED: { type: 'final' },
      },
    },
  },
});

function newAttempt(number: number, usdcAmount: bigint, startedAt: string) {
  return {
    number,
    requestId: null,
    depositAddress: null,
    usdcAmount,
    estimatedAmount: null,
    sourceTxHash: null,
    failureReason: null,
    startedAt,
    endedAt: null,
  };
}

/** The public status of a snapshot's state: a try waiting for its backoff is still PENDING. */
export function bridgeStatusOf(value: unknown): BridgeStatus {
  const top = typeof value === 'string' ? value : Object.keys(value as Record<string, unknown>)[0]!;
  return top === 'RETRYING' ? 'PENDING' : (top as BridgeStatus);
}
