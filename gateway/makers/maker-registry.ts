/**
 * Makes and reads maker records. A record is one maker-record actor per payee and processor
 * (makerActorId): creating it again answers the record already made, with its number,
 * when the maker's details agree, and MAKER_EXISTS when they do not; a record is never
 * changed by a create. Reads query the actors' views and wake none.
 */
import { CommandRejectedError } from '../../actors/errors.js';
import { makerRecordKind } from '../../actors/kinds/maker-record-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import {
  HASHED_ONCHAIN_ID,
  makerActorId,
  offchainIdOf,
  payeeHash,
  PAYEE_IDENTIFIERS,
  PROCESSORS,
  processorsReadFor,
  sameDetails,
  toMakerRecord,
  type MakerEvent,
  type MakerRecord,
  type ProcessorName,
  type StoredMakerRecord,
} from '../../machines/maker/index.js';
import { ApiError, fieldError } from '../envelope.js';
import type { MakerRequest } from './maker-requests.js';
import { MakerNumbers } from './maker-numbers.js';

export class MakerRegistry {
  readonly #numbers: MakerNumbers;

  constructor(
    private readonly system: ActorSystem,
    private readonly now: () => string,
  ) {
    this.#numbers = new MakerNumbers(system);
  }

  async create(request: MakerRequest): Promise<MakerRecord> {
    const hashedOnchainId = payeeHash(request.offchainId);
    const actorId = makerActorId(request.processor, hashedOnchainId);
    // Most repeats find the record and take no number.
    const stored = (await this.#stored(actorId)) ?? (await this.#open(actorId, request, hashedOnchainId));
    if (!sameDetails(stored, request.details)) {
      throw new ApiError(409, 'A maker record for this payee exists with other details; a create does not change it', 'MAKER_EXISTS');
    }
    return toMakerRecord(stored);
  }

  /** The record of `payeeDetails` (a hash, or a payee id in a spelling the processor takes) on `processor`. */
  async read(processor: ProcessorName, payeeDetails: string): Promise<MakerRecord> {
    const hash = HASHED_ONCHAIN_ID.test(payeeDetails) ? payeeDetails.toLowerCase() : payeeHash(offchainIdOrThrow(processor, payeeDetails));
    for (const candidate of processorsReadFor(processor)) {
      const stored = await this.#stored(makerActorId(candidate, hash));
      if (stored) return toMakerRecord(stored);
    }
    throw new ApiError(404, 'No maker record for this payee on this processor', 'NOT_FOUND');
  }

  async #open(actorId: string, request: MakerRequest, hashedOnchainId: string): Promise<StoredMakerRecord> {
    const id = await this.#numbers.take(actorId);
    const event: MakerEvent = {
      type: 'CREATE',
      record: {
        id,
        processorName: request.processor,
        offchainId: request.offchainId,
        hashedOnchainId,
        ...request.details,
        revoked: false,
        createdAt: this.now(),
      },
      paymentMethods: [...PROCESSORS[request.processor].paymentMethods],
    };
    try {
      // One message id per payee: a concurrent create of the same payee joins this one and is answered its record.
      return await this.system.ask(makerRecordKind, actorId, event, { messageId: `maker-create:${actorId}` });
    } catch (error) {
      if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
      const stored = await this.#stored(actorId);
      if (!stored) throw error;
      return stored;
    }
  }

  async #stored(actorId: string): Promise<StoredMakerRecord | null> {
    const doc = await this.system.views(makerRecordKind).findOne({ _id: actorId });
    return doc ? doc.view.record : null;
  }
}

function offchainIdOrThrow(processor: ProcessorName, raw: string): string {
  const id = offchainIdOf(processor, raw);
  if (id !== null) return id;
  const rules = PROCESSORS[processor].offchainIds.map((kind) => PAYEE_IDENTIFIERS[kind].rule);
  throw fieldError('payeeDetails', `must be a hashedOnchainId (0x and 64 hex digits) or ${rules.join(', or ')}`);
}
