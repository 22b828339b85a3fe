/**
 * The bridge rail of live payments (docs/bridges.md): the conversion provider's bridge out of
 * Base (the one crypto payouts use, actors/adapters/conversion/payout-bridge.ts), and the
 * platform's bridge wallet, a relayer wallet, sending USDC on Base through the relayer.
 *
 * - A quote binds an exact-input request with the bridge wallet as its refund target, so a try
 *   the provider gives back returns the USDC to where the next try takes it from.
 * - A send is the relayer's transaction `sendId`: asked again (an effect run twice, a node
 *   killed between the send and its report), the relayer answers the transaction already
 *   prepared and sends nothing more. Its outcome is read from the relayer's view.
 * - A delivery is the provider's word (no chain of the destination is read), as for payouts; a
 *   refund is money coming back, so it counts only once Base's receipts show its USDC reaching
 *   the bridge wallet, and only for the one request that claims its transaction first.
 */
import { encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { ConversionRefused, type DeliveryReader } from '../adapters/conversion/conversion-provider.js';
import type { PayoutBridgeProvider } from '../adapters/conversion/payout-bridge.js';
import type { DeliveryClaims } from '../payments/delivery-claims.js';
import type { Relayer } from '../relayer/relayer.js';
import type { PaymentChain } from '../../machines/payment/index.js';
import {
  BridgeRefused,
  type BridgeQuoteRequest,
  type BridgeRail,
  type BridgeRailQuote,
  type BridgeRequestState,
  type BridgeSend,
  type BridgeSendState,
} from './bridge-rail.js';

const BRIDGE_SEND_PURPOSE = 'bridgeSend';

export interface ProviderBridgeRailOptions {
  provider: PayoutBridgeProvider;
  relayer: Pick<Relayer, 'send' | 'read'>;
  deliveries: DeliveryReader;
  claims: DeliveryClaims;
  /** Base, where the bridge wallet sends and refunds arrive. */
  chain: PaymentChain;
  usdc: Hex;
  /** The relayer wallet settlements of bridged orders are released to. */
  wallet: Hex;
  now(): string;
}

export class ProviderBridgeRail implements BridgeRail {
  constructor(private readonly options: ProviderBridgeRailOptions) {}

  async quote(request: BridgeQuoteRequest): Promise<BridgeRailQuote> {
    try {
      const quote = await this.options.provider.bind({
        usdcAmount: request.usdcAmount,
        destinationChainId: Number(request.destinationChainId),
        destinationTokenAddress: request.destinationToken,
        recipient: request.destinationAddress,
        refundTo: this.options.wallet,
      });
      return { requestId: quote.requestId, depositAddress: quote.depositAddress, estimatedAmount: quote.estimatedAmount };
    } catch (error) {
      if (error instanceof ConversionRefused) throw new BridgeRefused(`the conversion provider refused the bridge: ${error.code} ${error.message}`);
      throw error;
    }
  }

  async send(send: BridgeSend): Promise<BridgeSendState> {
    const { relayer, usdc, wallet } = this.options;
    const transaction =
      (await relayer.read(send.sendId)) ??
      (await relayer.send(send.sendId, {
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [send.to as Hex, send.usdcAmount] }),
        value: 0n,
        purpose: BRIDGE_SEND_PURPOSE,
        owner: null,
        from: wallet,
      }));
    const outcome = transaction.outcome;
    if (!outcome) return { status: 'pending' };
    if (outcome.status === 'MINED' && outcome.hash) return { status: 'mined', transactionHash: outcome.hash };
    return { status: 'failed', reason: `the bridge wallet's send ended ${outcome.status}${outcome.reason ? `: ${outcome.reason}` : ''}` };
  }

  async status(requestId: string): Promise<BridgeRequestState> {
    const { provider, deliveries, claims, chain, wallet } = this.options;
    const state = await provider.status(requestId);
    if (state.status === 'success')
      return { status: 'delivered', deliveredAmount: state.deliveredAmount, destinationTransactionHash: state.destinationTransactionHash ?? requestId };
    if (state.status !== 'refund' || state.refundTransactionHash === null) return { status: 'pending' };
    const refund = await deliveries.delivered(chain, [state.refundTransactionHash], wallet, null);
    if (!refund || !(await claims.claim(chain.chainId, refund.transactionHash, requestId, this.options.now()))) return { status: 'pending' };
    return { status: 'refunded', returnedUsdc: refund.netUsdc, reason: 'the conversion provider refunded the bridge' };
  }
}
