/**
 * The admin API's watchlist: the actors worth a look when nobody has an id to search,
 * in five lists (recent turns, timers due soonest, actors stuck partway through their
 * work, effects failing, open dead letters). The engineers' page reads these shapes;
 * docs/inspector.md says how each list is found.
 */
import { z } from 'zod';
import { isoTime } from './common.js';

export const watchlistQuery = z.strictObject({
  stuckAfter: z.coerce
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(10_080, 'must be at most 10080 (a week)')
    .default(15)
    .meta({ description: 'Minutes without a turn after which an actor partway through its work counts as stuck; default 15' }),
  limit: z.coerce.number().int().min(1).max(50, 'must be at most 50').default(10).meta({ description: 'Rows per list, 1 to 50; default 10' }),
});

const stateValue = z
  .union([z.string(), z.record(z.string(), z.unknown())])
  .meta({ description: 'The machine state: a state name, or an object of nested or parallel states' });

const watchedActor = z
  .object({
    kind: z.string(),
    id: z.string(),
    machine: z.string().meta({ description: 'The id of the machine the kind runs, as the charts name it' }),
    state: stateValue,
    version: z.number().int(),
    updatedAt: isoTime,
    at: isoTime.meta({ description: 'The time the list is ordered by: the last turn, the timer’s due time, the effect’s next attempt' }),
    note: z.string().meta({ description: 'Why it is listed, in words: the last event, the timer and what it delivers, the failing effect and its error' }),
  })
  .meta({ id: 'WatchedActor' });

const watchedDeadLetter = z
  .object({
    id: z.string().meta({ description: 'The dead letter’s id (GET /internal/v1/dead-letters/{deadLetterId})' }),
    actor: z.string().nullable().meta({ description: 'kind:id of the actor whose work it was; null for a consumer’s letter' }),
    source: z.string(),
    error: z.string().meta({ description: 'The last error, secrets redacted' }),
    attempts: z.number().int(),
    at: isoTime.meta({ description: 'The last attempt' }),
  })
  .meta({ id: 'WatchedDeadLetter' });

export const watchlist = z
  .object({
    asOf: isoTime.meta({ description: 'The node’s clock when the lists were read' }),
    stuckAfter: z.number().int().meta({ description: 'The minutes used for stuck' }),
    limit: z.number().int(),
    recent: z.array(watchedActor).meta({ description: 'The actors with the latest turns, newest first' }),
    dueTimers: z.array(watchedActor).meta({ description: 'Actors with a pending timer, the soonest first (an overdue one first of all)' }),
    stuck: z
      .array(watchedActor)
      .meta({ description: 'Actors partway through their work (a nested state) with no turn for stuckAfter minutes, the longest idle first' }),
    failingEffects: z.array(watchedActor).meta({ description: 'Actors whose next effect has failed and waits for a retry, the soonest retry first' }),
    deadLetters: z.array(watchedDeadLetter).meta({ description: 'Open dead letters, newest first; empty where the node keeps none' }),
  })
  .meta({ id: 'Watchlist' });
