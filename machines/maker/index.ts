/**
 * machines/maker: document 3's maker records. The processors and the depositData each
 * takes (deposit-data.ts), how a payee id is spelled and normalised (payee-ids.ts), the
 * record and its keys (maker-record.ts), the maker machine and the sequence that numbers
 * records.
 */
export { PAYEE_IDENTIFIERS, payeeIdAs } from './payee-ids.js';
export type { PayeeIdentifier, PayeeIdentifierKind } from './payee-ids.js';
export { LEGACY_PROCESSOR_NAMES, LEGACY_TELEGRAM_FIELD, offchainIdOf, PROCESSOR_NAMES, PROCESSORS, processorsReadFor } from './deposit-data.js';
export type { DepositDataField, DepositDataFormat, DepositDataShape, Processor, ProcessorName } from './deposit-data.js';
export { HASHED_ONCHAIN_ID, makerActorId, payeeHash, sameDetails, TELEGRAM_USERNAME, toMakerRecord } from './maker-record.js';
export type { MakerDetails, MakerRecord, StoredMakerRecord } from './maker-record.js';
export { makerMachine } from './maker-machine.js';
export type { MakerContext, MakerEvent, MakerInput, RegisterPayeeParams } from './maker-machine.js';
export { makerSequenceMachine } from './maker-sequence-machine.js';
export type { MakerSequenceContext, MakerSequenceEvent } from './maker-sequence-machine.js';
