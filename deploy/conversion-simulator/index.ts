/** The local stand-in for a conversion provider (Relay): crypto payments on the embedded default's local chain. */
export * from './conversion-simulator.js';
export * from './conversion-requests.js';
export { LOCAL_CUSTOMER_INDEX, LOCAL_SOLVER_INDEX } from './local-settlement.js';
