/**
 * machines/dispute: a merchant-paid dispute over a settled payment (docs/disputes.md),
 * document 1's dispute payload and the merchant's read fields.
 */
export { disputeMachine } from './dispute-machine.js';
export type { DisputeEmitted, StakeClaimParams } from './dispute-machine.js';
export { toDisputePayload, toDisputeReadFields } from './dispute-payload.js';
export type { DisputePayload, DisputeReadFields } from './dispute-payload.js';
export type { DisputeContext, DisputeEvent, DisputeInput, DisputeSource, DisputeStatus, StakeStatus } from './dispute-types.js';
