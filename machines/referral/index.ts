/** machines/referral: makers' referral codes (one actor per code) and each maker's referral record (one per wallet). */
export * from './referral-code.js';
export * from './referral-code-machine.js';
export * from './maker-referral-machine.js';
