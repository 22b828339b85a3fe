/**
 * machines/: the XState v5 machines and the domain rules they use (money, fees,
 * amounts, ids). Pure: no I/O, no clock, no randomness except through inputs.
 * The domain machines arrive with the issues that build orders, payments, payouts
 * and deposits; the runtime in actors/ drives them through `transition()`.
 */
export {};
