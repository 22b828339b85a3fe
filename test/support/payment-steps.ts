/**
 * Driving the payment machine with xstate's pure initialTransition/transition, and reading
 * a step: its status, its effects and emitted webhooks (from the returned actions) and its
 * delayed events (the xstate.raise actions that carry a delay, which the runtime turns into timers).
 */
import { initialTransition, transition, type AnyEventObject } from 'xstate';
import {
  paymentMachine,
  type PaymentContext,
  type PaymentEmitted,
  type PaymentEvent,
  type PaymentInput,
  type PaymentStatus,
} from '../../machines/payment/index.js';
import { livePaymentInput } from './payment-input.js';

export type Snapshot = ReturnType<typeof paymentMachine.resolveState>;
export type Action = { type: string; params?: unknown };
export type Step = [snapshot: Snapshot, actions: Action[]];

export function create(input: PaymentInput = livePaymentInput()): Step {
  const [snapshot, actions] = initialTransition(paymentMachine, input);
  return [snapshot, actions as Action[]];
}

export function send(snapshot: Snapshot, event: PaymentEvent | AnyEventObject): Step {
  const [next, actions] = transition(paymentMachine, snapshot, event as PaymentEvent);
  return [next, actions as Action[]];
}

/** Sends the events in turn; the last step's snapshot and actions. */
export function run(snapshot: Snapshot, ...events: Array<PaymentEvent | AnyEventObject>): Step {
  let step: Step = [snapshot, []];
  for (const event of events) step = send(step[0], event);
  return step;
}

export const context = (snapshot: Snapshot) => snapshot.context as PaymentContext;
export const statusOf = (snapshot: Snapshot) => (typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value)[0]!) as PaymentStatus;
export const types = (actions: Action[]) => actions.map((action) => action.type);
export const emitted = (actions: Action[]) =>
  actions.filter((action) => action.type === 'xstate.emit').map((action) => (action.params as { event: PaymentEmitted }).event);
export const paramsOf = (actions: Action[], type: string) =>
  actions.filter((action) => action.type === type).map((action) => action.params as Record<string, unknown>);

export function only(actions: Action[], type: string): Record<string, unknown> {
  const found = paramsOf(actions, type);
  if (found.length !== 1) throw new Error(`expected one ${type} action, got ${JSON.stringify(types(actions))}`);
  return found[0]!;
}

/** The delayed events a step raised (the runtime's timers), each with its delay. */
export const delayed = (actions: Action[]) =>
  paramsOf(actions, 'xstate.raise').filter((params) => typeof params.delay === 'number') as unknown as Array<{ event: AnyEventObject; delay: number }>;
