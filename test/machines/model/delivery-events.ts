/**
 * The webhook delivery model's inputs: a delivery held behind the one before it, one
 * sent at once, a test event (manual, tried once), and one made while its endpoint was
 * off (suspended), alone or behind the one before it. Attempts complete with a 2xx, a
 * 410, a 500 or no answer because the endpoint is off, for the attempt in flight, and,
 * once there was an earlier one, for a stale attempt; the merchant redelivers; the
 * dispatcher links a successor and releases a held delivery.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { deliveryKind } from '../../../actors/kinds/delivery-kind.js';
import type { AttemptOutcome, DeliveryContext, DeliveryEvent, DeliveryInput } from '../../../machines/webhook/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

export const DELIVERY_KIND = deliveryKind;

const AT = '2026-11-23T12:30:00.000Z';

const input = (id: string, fields: Partial<DeliveryInput>): DeliveryInput => ({
  id,
  webhookId: 'wh_model',
  merchantId: 'mer_1',
  eventId: 'evt_model',
  eventType: 'ORDER_CREATED',
  subjectId: 'ord_model',
  body: '{"id":"evt_model","type":"ORDER_CREATED"}',
  eventAt: '2026-11-23T12:00:00.000Z',
  held: false,
  at: '2026-11-23T12:00:00.000Z',
  ...fields,
});

const variant = (name: string, id: string, fields: Partial<DeliveryInput>): Variant => ({ name, id, create: { type: 'CREATE', ...input(id, fields) } });

export const DELIVERY_VARIANTS: Variant[] = [
  variant('held', 'whd_model_held', { held: true }),
  variant('sent at once', 'whd_model_sent', {}),
  variant('test event', 'whd_model_test', { manual: true }),
  variant('suspended', 'whd_model_suspended', { suspended: true }),
  variant('suspended, held', 'whd_model_suspended_held', { suspended: true, held: true }),
];

const outcome = (responseCode: number | null, errorCode: AttemptOutcome['errorCode'] = null): AttemptOutcome => ({
  responseCode,
  responseExcerpt: responseCode === null ? '' : `status ${responseCode}`,
  durationMs: 42,
  error: errorCode === null ? null : 'the endpoint is disabled or deleted',
  errorCode,
  requestHeaders: { 'content-type': 'application/json' },
  url: 'https://shop.example/hooks',
});

const completed = (label: string, attempt: number, result: AttemptOutcome): DeliveryEvent =>
  sample(label, { type: 'ATTEMPT_COMPLETED', attempt, outcome: result, at: AT });

export function deliveryEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const { attemptCount } = snapshot.context as DeliveryContext;
  const events: DeliveryEvent[] = [
    { type: 'FOLLOWED_BY', successorId: 'whd_model_next' },
    { type: 'RELEASE' },
    { type: 'REDELIVER', at: AT },
    completed('200', attemptCount, outcome(200)),
    completed('410', attemptCount, outcome(410)),
    completed('500', attemptCount, outcome(500)),
    completed('endpoint off', attemptCount, outcome(null, 'ENDPOINT_INACTIVE')),
  ];
  if (attemptCount >= 2) events.push(completed('stale 500', attemptCount - 1, outcome(500)));
  return events;
}

/** What the guards read: attempts on the schedule, a redelivery in flight, the successor and whether it was let go. */
export function deliveryAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as DeliveryContext;
  return {
    value: snapshot.value,
    held: context.held,
    scheduled: context.scheduledAttempts,
    first: context.attemptCount === 1,
    manual: context.manual,
    successor: context.successorId,
    released: context.successorReleased,
    failure: context.failure?.code ?? null,
  };
}
