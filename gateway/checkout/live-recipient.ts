/** Where a live attempt of an order releases its USDC on Base (docs/bridges.md, "Where the money sits"). */
import { chainById } from '../../machines/catalog/index.js';
import type { PaymentHex as Hex } from '../../machines/payment/index.js';
import { ApiError } from '../envelope.js';

/**
 * Where a live attempt releases its USDC on Base: the order's own EVM address, or for an order
 * delivered on another chain the platform's bridge wallet, whose bridge sends it on after the
 * settlement (docs/bridges.md). The create refuses a live bridged order on a node without a
 * bridge wallet; one made before the node lost it waits for it to come back.
 */
export function liveRecipient(destinationChainId: string, destinationAddress: string, bridgeWallet: Hex | null): Hex {
  if (chainById(destinationChainId)?.delivery !== 'BRIDGE') return destinationAddress as Hex;
  if (!bridgeWallet) throw new ApiError(503, 'This node cannot bridge live payments now; try again later', 'SERVICE_UNAVAILABLE');
  return bridgeWallet;
}
