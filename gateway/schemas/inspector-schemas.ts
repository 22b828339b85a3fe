/**
 * The admin API's inspector schemas: the actor path, the history and search queries,
 * and the resources they answer (an actor, a page of its turns, the actor as of one
 * turn, search hits), from which the OpenAPI document is generated too. The engineers'
 * page reads these shapes; docs/inspector.md describes them with examples.
 */
import { z } from 'zod';
import { ADDRESS_PART, SAFE_PART } from '../../actors/address.js';
import { isoTime, pageQuery } from './common.js';

const kind = z
  .string()
  .regex(SAFE_PART, 'must be an actor kind: 1 to 128 letters, digits, _ or -')
  .meta({ description: 'The actor kind: order, payment, webhook, delivery, transaction, …', example: 'order' });
const actorId = z.string().regex(SAFE_PART, 'must be an actor id: 1 to 128 letters, digits, _ or -').meta({ example: 'ord_4Fz1hQk9TbW2mX7pLr0sVc3N' });
const version = z
  .number()
  .int()
  .meta({ description: 'The document version a turn wrote; maintenance writes take versions too, so versions of turns may skip' });

export const actorPath = z.strictObject({ kind, actorId });

export const turnPath = z.strictObject({
  kind,
  actorId,
  version: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'must be a version: a whole number from 1')
    .meta({ example: '3' }),
});

export const historyQuery = z.strictObject({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(0)
    .meta({ description: 'Turns after this version (nextAfter of the previous page); 0 from the first' }),
  limit: pageQuery.limit,
});

export const turnQuery = z.strictObject({
  replay: z
    .enum(['true', 'false'])
    .default('false')
    .meta({ description: 'true: replay the recorded events from the creation through the machine, instead of reading the snapshot the turn stored' }),
});

export const searchQuery = z.strictObject({
  query: z
    .string()
    .regex(new RegExp(`^(${ADDRESS_PART}:)?${ADDRESS_PART}$`), 'must be an actor id (ord_…, pay_…, mer_…) or an address kind:id')
    .meta({
      description: 'An actor id or kind:id; an id also finds the actors whose view names it as their merchant, order or webhook',
      example: 'ord_4Fz1hQk9TbW2mX7pLr0sVc3N',
    }),
  limit: pageQuery.limit,
});

const stateValue = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .meta({ id: 'StateValue', description: 'The machine state: a state name, or an object of parallel or nested states' });

const freeForm = (description: string) => z.record(z.string(), z.unknown()).meta({ description });

export const inspectedActor = z
  .object({
    kind: z.string(),
    id: z.string(),
    machine: z.string().meta({ description: 'The id of the machine the kind runs, as the charts name it' }),
    machineVersion: z.number().int(),
    version,
    state: stateValue,
    status: z.enum(['active', 'done', 'error', 'stopped']).meta({ description: 'The snapshot status: done once the machine reached a final state' }),
    context: freeForm('The machine context from the snapshot, secrets redacted; bigints as the codec stores them, {"__bigint": "<digits>"}'),
    view: freeForm('What the API reads and lists serve, secrets redacted'),
    timers: z.array(
      z.object({
        id: z.string(),
        dueAt: isoTime,
        event: freeForm('The event the timer delivers, secrets redacted'),
        attempts: z.number().int().meta({ description: 'Failed deliveries so far' }),
        retryAt: isoTime.nullable().meta({ description: 'When a failed delivery is tried again; null before a failure' }),
      }),
    ),
    outbox: z.array(
      z.object({
        id: z.string(),
        type: z.string().meta({ description: 'event (a domain event), tell (a message to another actor) or the kind’s effect' }),
        queuedAt: isoTime,
        attempts: z.number().int(),
        nextAttemptAt: isoTime.nullable(),
        lastError: z.string().nullable(),
      }),
    ),
    createdAt: isoTime,
    updatedAt: isoTime,
    events: z
      .array(z.string())
      .meta({ description: 'The event types the admin API can send it (POST …/events): its machine’s, less creations and delayed events' }),
  })
  .meta({ id: 'InspectedActor' });

export const turnSummary = z
  .object({
    version,
    at: isoTime,
    messageId: z.string().meta({ description: 'The message applied; timer:<timer id>@<due ms> for a timer' }),
    event: freeForm('The event the machine took (for a timer, the event it delivered), secrets redacted'),
    timer: z.string().nullable().meta({ description: 'The timer that delivered the event; null for a message' }),
    stateBefore: stateValue.nullable().meta({ description: 'null for the turn that created the actor' }),
    stateAfter: stateValue,
    effects: z.object({
      outbox: z.array(
        z.object({
          id: z.string(),
          type: z.string(),
          event: z.string().optional().meta({ description: 'The type of an emitted event or of a told one' }),
          to: z.string().optional().meta({ description: 'kind:id of the actor a tell goes to' }),
        }),
      ),
      timersSet: z.array(z.object({ id: z.string(), dueAt: isoTime, event: z.string() })),
      timersCancelled: z.array(z.string()),
    }),
  })
  .meta({ id: 'Turn' });

export const turnPage = z
  .object({
    kind: z.string(),
    id: z.string(),
    turns: z.array(turnSummary).meta({ description: 'Oldest first' }),
    hasMore: z.boolean(),
    nextAfter: z.number().int().nullable().meta({ description: 'Pass as after for the next page; null on the last page' }),
    limit: z.number().int(),
  })
  .meta({ id: 'TurnPage' });

export const actorAsOf = z
  .object({
    kind: z.string(),
    id: z.string(),
    version,
    state: stateValue,
    context: freeForm('The machine context after the turn, secrets redacted'),
    source: z.enum(['snapshot', 'replay']).meta({ description: 'snapshot: the one the turn stored; replay: computed from the recorded events' }),
    replayedFrom: z.number().int().nullable().meta({
      description:
        'With source replay: 0 when replayed from the creation, else the version whose stored snapshot it started from (older turns past the retention); null with source snapshot',
    }),
    turn: turnSummary,
  })
  .meta({ id: 'ActorAsOf' });

export const actorSearch = z
  .object({
    query: z.string(),
    actors: z.array(
      z.object({
        kind: z.string(),
        id: z.string(),
        machine: z.string(),
        state: stateValue,
        version,
        updatedAt: isoTime,
        match: z
          .enum(['id', 'merchantId', 'orderId', 'webhookId'])
          .meta({ description: 'id: the actor itself; otherwise the view field that names the searched id' }),
      }),
    ),
    hasMore: z.boolean().meta({ description: 'More actors match than limit; narrow the search' }),
    limit: z.number().int(),
  })
  .meta({ id: 'ActorSearch' });
