/**
 * machines/bridge: one payment bridge, the net USDC of a settled payment carried from Base to
 * the order's destination chain through the conversion provider (docs/bridges.md), and the
 * shape merchants read it in (`data.paymentBridge`, the hosted order's `bridgeInfo`).
 */
export { BRIDGE_POLL_MS, bridgeMachine, bridgeStatusOf, MAX_ATTEMPTS, RETRY_BASE_MS } from './bridge-machine.js';
export type { BridgeEmitted } from './bridge-machine.js';
export { toPaymentBridge } from './bridge-view.js';
export type { PaymentBridge } from './bridge-view.js';
export type {
  BridgeAttempt,
  BridgeContext,
  BridgeDestination,
  BridgeEndpoint,
  BridgeEvent,
  BridgeInput,
  BridgeRefund,
  BridgeStatus,
  CheckBridgeParams,
  QuoteBridgeParams,
  RefundBridgeParams,
  SendBridgeParams,
} from './bridge-types.js';
