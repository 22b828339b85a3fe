/**
 * The local stand-in for a conversion provider (Relay): crypto payments and payout funding on
 * the embedded default's local chain.
 */
export { ConversionSimulator, ORIGIN_CHAIN_ID } from './conversion-simulator.js';
export type { ConversionSimulatorOptions } from './conversion-simulator.js';
export { arrival, originAmountFor, PROVIDER_FEE_BPS } from './conversion-requests.js';
export type { Arrival, Payout, SimRequest, SimToken } from './conversion-requests.js';
export type { FundingFault, FundingFaults, WalletTransfer } from './funding-desk.js';
export { fundingOriginAmount, usdcPerToken } from './funding-prices.js';
export type { StandIn } from './funding-tokens.js';
export { LOCAL_CUSTOMER_INDEX, LOCAL_SOLVER_INDEX } from './local-settlement.js';
