/**
 * actors/payouts: what a payout does outside its machine: prepare the customer's wallet and
 * the deposit address, watch the wallet on chain, and check the funding with the provider.
 */
export { payoutEffects } from './payout-effects.js';
export type { PayoutEffectDependencies } from './payout-effects.js';
