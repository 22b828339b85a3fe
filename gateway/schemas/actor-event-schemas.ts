/**
 * Sending an event to an actor from the admin API (docs/inspector.md, "Sending an
 * event"): the body and the answer, from which the OpenAPI document is generated too.
 */
import { z } from 'zod';
import { turnSummary } from './inspector-schemas.js';

export const sendEventBody = z.strictObject({
  event: z
    .looseObject({
      type: z
        .string()
        .regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'must be an event type in capitals, such as CANCEL')
        .meta({ description: 'One of the event types the actor’s machine takes (its chart names them)', example: 'CANCEL' }),
    })
    .meta({
      description: 'The event as the history shows events: its type and its fields, a bigint written {"__bigint": "<digits>"}',
      example: { type: 'CANCEL' },
    }),
});

export const sentEvent = z
  .object({
    kind: z.string(),
    id: z.string(),
    messageId: z.string().meta({ description: 'admin-api:<request id>: the turn’s message id, so its row says who sent it' }),
    reply: z.unknown().meta({ description: 'What the actor answered, as the codec writes it (a bigint as {"__bigint": "<digits>"}), secrets redacted' }),
    turn: turnSummary
      .nullable()
      .meta({ description: 'The turn the event made, as the history lists it; null when the message id was applied before (the same request id sent again)' }),
  })
  .meta({ id: 'SentEvent' });
