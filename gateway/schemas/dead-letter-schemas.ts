/**
 * The admin API's dead-letter schemas: the path id, the list query, the discard body,
 * and the DeadLetter resource and list they answer, from which the OpenAPI document
 * is generated too.
 */
import { z } from 'zod';
import { ADDRESS_PART } from '../../actors/address.js';
import { DEAD_LETTER_SOURCES, DEAD_LETTER_STATUSES } from '../../actors/runtime/dead-letters.js';
import { isoTime } from './common.js';

/** `dlq_` and 24 hex digits: what DeadLetterStore.idOf makes. */
export const DEAD_LETTER_ID = /^dlq_[0-9a-f]{24}$/;

export const deadLetterId = z
  .string()
  .regex(DEAD_LETTER_ID, 'must be a dead letter id: dlq_ and 24 lower-case hex digits')
  .meta({ description: 'A dead letter id: dlq_ and 24 lower-case hex digits', example: 'dlq_3f9a1c0b7d2e4f6a8b1c2d3e' });

export const deadLetterPath = z.strictObject({ deadLetterId });

export const deadLetterStatus = z.enum(DEAD_LETTER_STATUSES).meta({ description: 'OPEN while it waits for an operator; RETRIED or DISCARDED once one acted' });
export const deadLetterSource = z
  .enum(DEAD_LETTER_SOURCES)
  .meta({ description: 'Where the work came from: an effect, a timer, a bus delivery, a refused message or a fact' });

/** An actor address as formatAddress writes it. */
const ACTOR = new RegExp(`^${ADDRESS_PART}:${ADDRESS_PART}$`);

export const listDeadLettersQuery = z.strictObject({
  status: deadLetterStatus.default('OPEN').meta({ description: 'Default OPEN: the letters waiting for an operator' }),
  source: deadLetterSource.optional().meta({ description: 'Only letters from this source' }),
  actor: z
    .string()
    .regex(ACTOR, 'must be an actor address kind:id, such as order:ord_4Fz1hQk9TbW2mX7pLr0sVc3N')
    .optional()
    .meta({ description: 'Only the letters of this actor (kind:id)' }),
  limit: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(20).meta({ description: 'Letters per page, at most 100' }),
  startingAfter: deadLetterId.optional().meta({ description: 'The id of the last letter of the previous page (nextStartingAfter)' }),
});

export type ListDeadLettersQuery = z.infer<typeof listDeadLettersQuery>;

export const discardDeadLetterBody = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(500, 'must be at most 500 characters')
      .meta({ description: 'Why the work is given up; kept on the letter' }),
  })
  .meta({ example: { reason: 'Refunded by hand; the webhook is no longer wanted' } });

export const deadLetterView = z
  .object({
    id: z.string().meta({ description: 'The letter’s id (dlq_…)' }),
    key: z.string().meta({
      description: 'What failed: effect:<effect id>, timer:<actor>:<timer id>@<due>, bus:<consumer>:<event id>, refusal:<effect id> or fact:<fact id>:<actor>',
    }),
    source: deadLetterSource,
    actor: z
      .object({ kind: z.string().meta({ description: 'The actor’s kind' }), id: z.string().meta({ description: 'The actor’s id' }) })
      .nullable()
      .meta({ description: 'The actor whose work it was; null for a bus delivery' }),
    consumer: z.string().nullable().meta({ description: 'The durable consumer of a bus delivery; null otherwise' }),
    payload: z.unknown().meta({ description: 'The original work as stored: the outbox entry, the timer row, the domain event or the refused message' }),
    error: z
      .object({
        name: z.string().meta({ description: 'The error’s class' }),
        message: z.string().meta({ description: 'The error’s message' }),
        code: z.string().nullable().meta({ description: 'The error’s code, when it has one' }),
      })
      .meta({ description: 'The last attempt’s error' }),
    attempts: z.number().meta({ description: 'Attempts made before the work was set aside' }),
    firstAttemptAt: isoTime,
    lastAttemptAt: isoTime,
    createdAt: isoTime,
    updatedAt: isoTime,
    status: deadLetterStatus,
    resolution: z.string().nullable().meta({ description: 'The discard reason, or retried; null while open' }),
    resolvedAt: isoTime.nullable().meta({ description: 'When an operator retried or discarded it; null while open' }),
  })
  .meta({ id: 'DeadLetter' });

export const deadLetterList = z
  .object({
    deadLetters: z.array(deadLetterView).meta({ description: 'This page of letters, newest first' }),
    hasMore: z.boolean().meta({ description: 'More letters follow this page' }),
    nextStartingAfter: z.string().nullable().meta({ description: 'Pass as startingAfter for the next page; null on the last page' }),
    limit: z.number().meta({ description: 'The most letters a page holds' }),
    openCount: z.number().meta({ description: 'Open letters in all, whatever the filters' }),
  })
  .meta({ id: 'DeadLetterList' });
