/**
 * The bridge rail of sandbox payments, which release no USDC (docs/payments.md): nothing moves,
 * and each step answers at once what a provider that delivers would, with hashes derived from
 * the bridge so a retry answers the same. USDC to USDC is one for one (the catalog's bridged
 * tokens are all USDC).
 *
 * Failing on demand: `failNext(count, reason)` makes the next `count` requests quoted end
 * refunded by the provider, as the local provider's refund fault does for a payout's bridge.
 */
import { createHash } from 'node:crypto';
import type { BridgeQuoteRequest, BridgeRail, BridgeRailQuote, BridgeRequestState, BridgeSend, BridgeSendState } from './bridge-rail.js';

const hashOf = (text: string) => `0x${createHash('sha256').update(text).digest('hex')}`;

export class SimulatedBridgeRail implements BridgeRail {
  readonly #failing = new Map<string, string>();
  readonly #quoted = new Map<string, bigint>();
  #failNext: { count: number; reason: string } = { count: 0, reason: '' };
  /** Every send asked, by send id: a test counts what left the wallet. */
  readonly sends = new Map<string, BridgeSend>();

  failNext(count: number, reason = 'the simulated provider refunded the bridge'): void {
    this.#failNext = { count, reason };
  }

  async quote(request: BridgeQuoteRequest): Promise<BridgeRailQuote> {
    const requestId = `sim_${request.bridgeId}_${request.attempt}`;
    if (!this.#failing.has(requestId) && this.#failNext.count > 0) {
      this.#failNext.count -= 1;
      this.#failing.set(requestId, this.#failNext.reason);
    }
    this.#quoted.set(requestId, request.usdcAmount);
    return { requestId, depositAddress: hashOf(requestId).slice(0, 42), estimatedAmount: request.usdcAmount };
  }

  async send(send: BridgeSend): Promise<BridgeSendState> {
    this.sends.set(send.sendId, send);
    return { status: 'mined', transactionHash: hashOf(`send ${send.sendId}`) };
  }

  async status(requestId: string): Promise<BridgeRequestState> {
    const reason = this.#failing.get(requestId);
    if (reason !== undefined) return { status: 'refunded', returnedUsdc: null, reason };
    return { status: 'delivered', deliveredAmount: this.#quoted.get(requestId) ?? null, destinationTransactionHash: hashOf(`delivery ${requestId}`) };
  }
}
