/**
 * The admin API's sequence of an order: its actors, and all their turns in one list by
 * time, each naming whom it told, so the engineers' page can draw them side by side.
 */
import { z } from 'zod';
import { idPattern } from '../ids.js';
import { isoTime } from './common.js';

export const orderSequencePath = z.strictObject({
  orderId: z.string().regex(idPattern('ord'), 'must be an order id (ord_…)').meta({ example: 'ord_4Fz1hQk9TbW2mX7pLr0sVc3N' }),
});

const stateValue = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .meta({ description: 'The machine state: a state name, or an object of nested or parallel states' });

export const orderSequence = z
  .object({
    orderId: z.string(),
    actors: z
      .array(
        z.object({
          kind: z.string(),
          id: z.string(),
          machine: z.string(),
          state: stateValue.meta({ description: 'Where it stands now' }),
          turnsTruncated: z.boolean().meta({ description: 'It has more turns than the 200 newest listed (a transaction polling for a long while)' }),
        }),
      )
      .meta({ description: 'The order, its payments, the transactions they told, the webhook deliveries of the events they emitted' }),
    turns: z
      .array(
        z.object({
          actor: z.string().meta({ description: 'kind:id of the actor that took the turn' }),
          version: z.number().int(),
          at: isoTime,
          event: z.string().meta({ description: 'The event type' }),
          timer: z.string().nullable(),
          stateBefore: stateValue.nullable(),
          stateAfter: stateValue,
          messageId: z.string().meta({ description: 'A tell’s is <kind>:<id>:<version>:<n>, naming its sender' }),
          told: z.array(z.object({ to: z.string(), event: z.string() })).meta({ description: 'The actors it told, and what' }),
        }),
      )
      .meta({ description: 'Every turn of those actors, oldest first' }),
  })
  .meta({ id: 'OrderSequence' });
