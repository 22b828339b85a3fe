/**
 * One event on its way to one webhook endpoint (a `delivery` actor). PENDING in the
 * API while it is HELD (the event before it, of the same order and endpoint, has not
 * had its first answer yet), SENDING, or waiting for a retry; then DELIVERED (a 2xx)
 * or FAILED (410 Gone, the endpoint switched off, or the schedule spent).
 *
 * An event raised while its endpoint is off is still made a delivery, SUSPENDED: it
 * sends nothing and reads FAILED, so nothing is lost and redeliver-failed finds it once
 * the endpoint is back on. Its redelivery starts it as if it had just been made: held
 * behind the event before it of the same order while that one is unanswered, then on
 * the full schedule. It keeps its place in its order's lane meanwhile, so the events an
 * endpoint missed go out in the order they happened.
 *
 * The request body is fixed when the delivery is made, so every attempt sends the
 * same bytes with the same event id and receivers can de-duplicate on it. Each attempt
 * is an effect (`send`) that reports back with ATTEMPT_COMPLETED; retries are durable
 * timers (retry-schedule.ts), so a node that dies mid-delivery resumes it.
 *
 * A merchant's redelivery (REDELIVER) of a delivery that has ended is one more
 * attempt, off the schedule; of one waiting for a retry, it is that retry, sooner.
 */
import { assertEvent, assign, enqueueActions, not, setup } from 'xstate';
import { MAX_ATTEMPTS, retryWaitMs } from './retry-schedule.js';
import { isoAfter } from '../iso-time.js';

/** How long a delivery waits for the one before it at most, should the release never come. */
export const HOLD_LIMIT_MS = 30_000;

/** Attempts a delivery keeps in its history; older ones are dropped from it (the count stays). */
export const KEPT_ATTEMPTS = 25;

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

/** Why an attempt got no HTTP answer, or the endpoint could not be sent to at all. */
export type AttemptErrorCode = 'TIMEOUT' | 'DESTINATION_FORBIDDEN' | 'CONNECTION_FAILED' | 'INVALID_URL' | 'TLS_ERROR' | 'ENDPOINT_INACTIVE';

export interface AttemptOutcome {
  /** The HTTP status the receiver answered; null when there was no answer. */
  responseCode: number | null;
  /** The start of the response body, bounded. */
  responseExcerpt: string;
  durationMs: number;
  error: string | null;
  errorCode: AttemptErrorCode | null;
  /** What was sent, the merchant's custom headers included; never a secret. */
  requestHeaders: Record<string, string>;
  url: string | null;
}

export interface AttemptRecord extends AttemptOutcome {
  number: number;
  at: string;
  /** Asked for by the merchant rather than run by the schedule. */
  manual: boolean;
}

export interface DeliveryFailure {
  code: 'GONE' | 'ENDPOINT_INACTIVE' | 'SCHEDULE_SPENT' | 'REDELIVERY_FAILED' | 'SUSPENDED';
  message: string;
}

/** Why a delivery made while its endpoint was off reads FAILED until it is redelivered. */
const SUSPENDED_FAILURE: DeliveryFailure = {
  code: 'SUSPENDED',
  message: 'Not sent: the endpoint was disabled when the event came. Once it is back on, redeliver-failed (or a redelivery) sends it',
};

export interface DeliveryInput {
  id: string;
  webhookId: string;
  merchantId: string;
  eventId: string;
  eventType: string;
  /** The order (or payout) the event is about: deliveries of one subject to one endpoint go out in order. */
  subjectId: string;
  /** The exact request body. */
  body: string;
  /** When the event happened. */
  eventAt: string;
  /** Wait for the delivery before it to be answered once. */
  held: boolean;
  /** Tried once, off the schedule (a test event). */
  manual?: boolean;
  /** The endpoint is off: send nothing until a redelivery. */
  suspended?: boolean;
  at: string;
}

export interface DeliveryContext extends Omit<DeliveryInput, 'at' | 'manual' | 'suspended'> {
  /** Every attempt made, manual ones included. */
  attemptCount: number;
  /** Attempts on the schedule (what the retry waits follow). */
  scheduledAttempts: number;
  attempts: AttemptRecord[];
  /** Whether the attempt in flight is a merchant's redelivery of an ended delivery. */
  manual: boolean;
  nextRetryAt: string | null;
  /** The next delivery of the same subject to the same endpoint, waiting for this one's first answer. */
  successorId: string | null;
  /** Whether that successor has been told to go. */
  successorReleased: boolean;
  failure: DeliveryFailure | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryEvent =
  | ({ type: 'CREATE' } & DeliveryInput)
  /** From the dispatcher: `successorId` is the next event's delivery. The reply says whether it must wait. */
  | { type: 'FOLLOWED_BY'; successorId: string }
  | { type: 'RELEASE' }
  | { type: 'ATTEMPT_COMPLETED'; attempt: number; outcome: AttemptOutcome; at: string }
  | { type: 'REDELIVER'; at: string };

/** The effect of one attempt: a POST of `body` to the endpoint as it reads when it runs. */
export interface SendParams {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  attempt: number;
  body: string;
}

export function deliveryStatusOf(state: string): DeliveryStatus {
  if (state === 'DELIVERED') return 'DELIVERED';
  // Nothing is on its way: the merchant finds it, and redeliver-failed sends it, with the failed ones.
  if (state === 'FAILED' || state === 'SUSPENDED') return 'FAILED';
  return 'PENDING';
}

const completed = (event: DeliveryEvent) => (event.type === 'ATTEMPT_COMPLETED' ? event.outcome : null);
const answered2xx = (outcome: AttemptOutcome | null) => outcome?.responseCode != null && outcome.responseCode >= 200 && outcome.responseCode < 300;

/** The wait after the attempts made on the schedule so far. */
const retryWaitOf = (context: DeliveryContext) => retryWaitMs(context.id, context.scheduledAttempts) ?? 0;

export const deliveryMachine = setup({
  types: { input: {} as DeliveryInput, context: {} as DeliveryContext, events: {} as DeliveryEvent },
  delays: {
    holdLimit: HOLD_LIMIT_MS,
    retryWait: ({ context }) => retryWaitOf(context),
  },
  guards: {
    waitsForPredecessor: ({ context }) => context.held,
    suspended: ({ context }) => context.failure?.code === 'SUSPENDED',
    currentAttempt: ({ context, event }) => event.type === 'ATTEMPT_COMPLETED' && event.attempt === context.attemptCount,
    succeeded: ({ event }) => answered2xx(completed(event)),
    gone: ({ event }) => completed(event)?.responseCode === 410,
    endpointInactive: ({ event }) => completed(event)?.errorCode === 'ENDPOINT_INACTIVE',
    manual: ({ context }) => context.manual,
    scheduleLeft: ({ context }) => context.scheduledAttempts < MAX_ATTEMPTS,
    firstAttemptInFlight: ({ context }) => context.attemptCount === 1 && context.successorId === null,
  },
  actions: {
    /** The effect that makes one attempt; handled in actors/webhooks. */
    send: (_, _params: SendParams) => {},
    /** Tells the endpoint to switch off (410 Gone). */
    tell: (_, _params: { to: { kind: string; id: string }; event: Record<string, unknown> }) => {},
    /** Checks whether the endpoint has answered anything since this delivery began failing, and switches it off if not. */
    reportScheduleSpent: (_, _params: { deliveryId: string; webhookId: string; failingSince: string; at: string }) => {},
    countAttempt: assign(({ context }) => ({
      attemptCount: context.attemptCount + 1,
      scheduledAttempts: context.manual ? context.scheduledAttempts : context.scheduledAttempts + 1,
      nextRetryAt: null,
    })),
    record: assign(({ context, event }) => {
      assertEvent(event, 'ATTEMPT_COMPLETED');
      const record: AttemptRecord = { ...event.outcome, number: event.attempt, at: event.at, manual: context.manual };
      return { attempts: [...context.attempts, record].slice(-KEPT_ATTEMPTS), updatedAt: event.at };
    }),
    markReleased: assign({ successorReleased: true }),
    markDelivered: assign(({ event }) => {
      assertEvent(event, 'ATTEMPT_COMPLETED');
      return { failure: null, deliveredAt: event.at, manual: false };
    }),
    scheduleRetry: assign(({ context, event }) => {
      assertEvent(event, 'ATTEMPT_COMPLETED');
      return { nextRetryAt: isoAfter(event.at, retryWaitOf(context)) };
    }),
    failGone: assign({ failure: { code: 'GONE' as const, message: 'The endpoint answered 410 Gone; it has been disabled' }, manual: false }),
    failInactive: assign({ failure: { code: 'ENDPOINT_INACTIVE', message: 'The endpoint is disabled or deleted' }, manual: false }),
    failRedelivery: assign({ failure: { code: 'REDELIVERY_FAILED', message: 'The redelivery was not answered with a 2xx' }, manual: false }),
    failSpent: assign(({ context }) => ({
      failure: { code: 'SCHEDULE_SPENT' as const, message: `No 2xx answer in ${context.scheduledAttempts} attempts` },
      manual: false,
    })),
    /** The delivery before it has had its first answer: once resumed, this one need not wait. */
    markUnheld: assign({ held: false }),
    resume: assign(({ event }) => {
      assertEvent(event, 'REDELIVER');
      return { failure: null, updatedAt: event.at };
    }),
    recordSuccessor: assign(({ event }) => {
      assertEvent(event, 'FOLLOWED_BY');
      return { successorId: event.successorId, successorReleased: false };
    }),
    markManual: assign(({ event }) => {
      assertEvent(event, 'REDELIVER');
      return { manual: true, updatedAt: event.at };
    }),
    /** Takes the message and changes nothing (a transition without actions is not taken). */
    acknowledge: assign(() => ({})),
  },
}).createMachine({
  id: 'delivery',
  context: ({ input }) => {
    const { at, manual, suspended, ...fields } = input;
    return {
      ...fields,
      attemptCount: 0,
      scheduledAttempts: 0,
      attempts: [],
      manual: manual ?? false,
      nextRetryAt: null,
      successorId: null,
      successorReleased: false,
      failure: suspended ? SUSPENDED_FAILURE : null,
      deliveredAt: null,
      createdAt: at,
      updatedAt: at,
    };
  },
  initial: 'STARTING',
  // Late or repeated: a release after the hold ran out, a link once the first answer is in.
  on: {
    RELEASE: { actions: 'acknowledge' },
    FOLLOWED_BY: { actions: 'acknowledge' },
  },
  states: {
    STARTING: {
      always: [{ guard: 'suspended', target: 'SUSPENDED' }, { guard: 'waitsForPredecessor', target: 'HELD' }, { target: 'SENDING' }],
    },
    SUSPENDED: {
      on: {
        // Not attempted yet: the next event of its order waits for its first answer, as behind a HELD one.
        FOLLOWED_BY: { actions: 'recordSuccessor' },
        RELEASE: { actions: 'markUnheld' },
        REDELIVER: [
          { guard: 'waitsForPredecessor', target: 'HELD', actions: 'resume' },
          { target: 'SENDING', actions: 'resume' },
        ],
      },
    },
    HELD: {
      on: {
        RELEASE: 'SENDING',
        FOLLOWED_BY: { actions: 'recordSuccessor' },
      },
      after: { holdLimit: 'SENDING' },
    },
    SENDING: {
      entry: [
        'countAttempt',
        {
          type: 'send',
          params: ({ context }) => ({
            deliveryId: context.id,
            webhookId: context.webhookId,
            eventId: context.eventId,
            attempt: context.attemptCount,
            body: context.body,
          }),
        },
      ],
      on: {
        FOLLOWED_BY: { guard: 'firstAttemptInFlight', actions: 'recordSuccessor' },
        ATTEMPT_COMPLETED: [
          { guard: not('currentAttempt'), actions: 'acknowledge' },
          { guard: 'succeeded', target: 'DELIVERED', actions: ['record', 'markDelivered'] },
          {
            guard: 'gone',
            target: 'FAILED',
            actions: [
              'record',
              'failGone',
              {
                type: 'tell',
                params: ({ context, event }) => ({
                  to: { kind: 'webhook', id: context.webhookId },
                  event: { type: 'DISABLE', code: 'GONE', message: `The endpoint answered 410 Gone to event ${context.eventId}`, at: timeOf(event, context) },
                }),
              },
            ],
          },
          { guard: 'endpointInactive', target: 'FAILED', actions: ['record', 'failInactive'] },
          { guard: 'manual', target: 'FAILED', actions: ['record', 'failRedelivery'] },
          { guard: 'scheduleLeft', target: 'RETRY_WAIT', actions: ['record', 'scheduleRetry'] },
          {
            target: 'FAILED',
            actions: [
              'record',
              'failSpent',
              {
                type: 'reportScheduleSpent',
                params: ({ context, event }) => ({
                  deliveryId: context.id,
                  webhookId: context.webhookId,
                  failingSince: context.attempts.find((entry) => !entry.manual)?.at ?? context.createdAt,
                  at: timeOf(event, context),
                }),
              },
            ],
          },
        ],
      },
      // The first answer, whatever it was, lets the next event of the same subject go.
      exit: enqueueActions(({ context, enqueue }) => {
        if (context.successorId === null || context.successorReleased) return;
        enqueue({ type: 'tell', params: { to: { kind: 'delivery', id: context.successorId }, event: { type: 'RELEASE' } } });
        enqueue('markReleased');
      }),
    },
    RETRY_WAIT: {
      on: {
        REDELIVER: 'SENDING',
      },
      after: { retryWait: 'SENDING' },
    },
    DELIVERED: {
      on: {
        REDELIVER: { target: 'SENDING', actions: 'markManual' },
      },
    },
    FAILED: {
      on: {
        REDELIVER: { target: 'SENDING', actions: 'markManual' },
      },
    },
  },
});

function timeOf(event: DeliveryEvent, context: DeliveryContext): string {
  return 'at' in event && typeof event.at === 'string' ? event.at : context.updatedAt;
}
