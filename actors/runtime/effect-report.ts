/**
 * How an effect tells its own actor what it found. The message id is the effect id's, so
 * the report of a second run of the effect is the first run's, replayed. A report the
 * machine no longer takes (it moved on: a cancel, another report first) is stale, not a failure.
 */
import { CommandRejectedError } from '../errors.js';
import type { EffectContext } from './actor-kind.js';
import type { EventObject } from 'xstate';

export async function reportToSelf<TEvent extends EventObject>(context: EffectContext, event: TEvent): Promise<void> {
  try {
    await context.askAt(context.actor, event, { messageId: `${context.effectId}:report` });
  } catch (error) {
    if (!(error instanceof CommandRejectedError && error.code === 'EVENT_NOT_ACCEPTED')) throw error;
    context.logger.info({ actor: context.actor, event: event.type, state: error.message }, 'a report the actor no longer takes');
  }
}
