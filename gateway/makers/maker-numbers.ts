/**
 * Takes record numbers from the maker-record-sequence actor. The message id is derived from the
 * maker the number is for, so concurrent creates of one payee (and a retried ask) are one
 * TAKE, answered with one number, for as long as the runtime remembers message ids. The
 * sequence actor is opened by the first TAKE that finds none.
 */
import { CommandRejectedError, UnknownActorError } from '../../actors/errors.js';
import { MAKER_SEQUENCE_ID, makerSequenceKind } from '../../actors/kinds/maker-record-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';

export class MakerNumbers {
  constructor(private readonly system: ActorSystem) {}

  /** A number no other maker has, the same one for every ask about `makerActorId`. */
  async take(makerActorId: string): Promise<number> {
    const ask = () => this.system.ask(makerSequenceKind, MAKER_SEQUENCE_ID, { type: 'TAKE' }, { messageId: `maker-number:${makerActorId}` });
    try {
      return await ask();
    } catch (error) {
      if (!(error instanceof UnknownActorError)) throw error;
      await this.#open();
      return ask();
    }
  }

  async #open(): Promise<void> {
    try {
      await this.system.ask(makerSequenceKind, MAKER_SEQUENCE_ID, { type: 'OPEN' }, { messageId: 'maker-sequence:open' });
    } catch (error) {
      // Opened by a create that got there first, past the time its message id is remembered.
      if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
    }
  }
}
