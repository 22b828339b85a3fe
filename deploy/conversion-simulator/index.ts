/** The local stand-in for a conversion provider (Relay): crypto payments on the embedded default's local chain. */
export { ConversionSimulator, ORIGIN_CHAIN_ID, PROVIDER_FEE_BPS } from './conversion-simulator.js';
export type { ConversionSimulatorOptions } from './conversion-simulator.js';
export { arrival, originAmountFor } from './conversion-requests.js';
export type { Arrival, Payout, SimRequest, SimToken } from './conversion-requests.js';
export { LOCAL_CUSTOMER_INDEX, LOCAL_SOLVER_INDEX } from './local-settlement.js';
