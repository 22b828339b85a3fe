/**
 * The webhook endpoint model's inputs: an endpoint taking every event type, and what the
 * merchant (updates that switch it on, off or neither, a secret rotation, a delete) and
 * its deliveries (410 Gone, a spent schedule) send it.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { webhookKind } from '../../../actors/kinds/webhook-kind.js';
import type { WebhookEvent } from '../../../machines/webhook/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

export const WEBHOOK_KIND = webhookKind;

const AT = '2026-11-23T12:30:00.000Z';

export const WEBHOOK_VARIANTS: Variant[] = [
  {
    name: 'every event type',
    id: 'wh_model',
    create: {
      type: 'CREATE',
      id: 'wh_model',
      merchantId: 'mer_1',
      environment: 'LIVE',
      url: 'https://shop.example/hooks',
      events: [],
      customHeaders: [{ key: 'x-shop', value: 'model' }],
      secret: 'whsec_first',
      at: '2026-11-23T12:00:00.000Z',
    },
  },
];

const SAMPLES: WebhookEvent[] = [
  sample('switch on', { type: 'UPDATE', changes: { active: true }, at: AT }),
  sample('switch off', { type: 'UPDATE', changes: { active: false }, at: AT }),
  sample('new url', { type: 'UPDATE', changes: { url: 'https://shop.example/hooks/v2' }, at: AT }),
  { type: 'ROTATE_SECRET', secret: 'whsec_second', at: AT },
  sample('gone', { type: 'DISABLE', code: 'GONE', message: 'The endpoint answered 410 Gone to event evt_1', at: AT }),
  sample('failing', { type: 'DISABLE', code: 'FAILING', message: 'No 2xx answer for three days', at: AT }),
  { type: 'DELETE', at: AT },
];

export const webhookEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => SAMPLES;

/** No guard reads the context beyond the event: the state is enough. */
export const webhookAbstraction = (snapshot: AnyMachineSnapshot): unknown => snapshot.value;
