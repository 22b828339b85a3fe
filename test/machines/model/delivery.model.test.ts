/**
 * Model-based tests of the webhook delivery machine on the `delivery` kind. No API
 * document has a table for deliveries (docs/webhooks.md describes them): each step is
 * checked against the machine, and the view's PENDING, DELIVERED or FAILED against its
 * state. The retry waits are durable timers, fired by moving the test clock.
 */
import test from 'ava';
import { deliveryStatusOf } from '../../../machines/webhook/index.js';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { DELIVERY_KIND, DELIVERY_VARIANTS, deliveryAbstraction, deliveryEvents } from './delivery-events.js';

const model: MachineModel = {
  name: 'delivery',
  kind: DELIVERY_KIND,
  variants: DELIVERY_VARIANTS,
  events: deliveryEvents,
  abstract: deliveryAbstraction,
  statusOf: (snapshot) => deliveryStatusOf(String(snapshot.value)),
  viewStatus: (view) => {
    const delivery = view.delivery as { status: string };
    return delivery.status === view.status ? view.status : `view ${String(view.status)}, delivery ${delivery.status}`;
  },
};

modelTests(test, model);
