/** actors/disputes: the dispute kind's effect and the stake it claims from (docs/disputes.md). */
export { disputeEffects } from './dispute-effects.js';
