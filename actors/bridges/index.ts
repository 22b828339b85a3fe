/**
 * actors/bridges: what runs payment bridges (docs/bridges.md): the rail port and its simulated
 * stand-in, the bridge kind's effects, and the launcher that starts a bridge per settled payment
 * of a bridged order.
 */
export { BridgeRefused } from './bridge-rail.js';
export type { BridgeQuoteRequest, BridgeRail, BridgeRailQuote, BridgeRequestState, BridgeSend, BridgeSendState } from './bridge-rail.js';
export { bridgeEffects } from './bridge-effects.js';
export type { BridgeRails } from './bridge-effects.js';
export { BRIDGE_LAUNCHER_DURABLE, BridgeLauncher } from './bridge-launcher.js';
export { SimulatedBridgeRail } from './simulated-bridge-rail.js';
export { ProviderBridgeRail } from './provider-bridge-rail.js';
export type { ProviderBridgeRailOptions } from './provider-bridge-rail.js';
