/**
 * The effects of the payout machine. Each runs after the turn that asked for it is written,
 * at least once, so each is safe to run again: the provider opens one deposit address per
 * payout (its `reference` is the payout id), the wallet provider answers the same wallet for
 * the same e-mail, and every report carries the effect id as its message id.
 *
 * Preparation failures are the merchant's answer, not the runtime's to retry: they go back
 * to the payout as PREPARATION_FAILED with document 2's code, and the merchant retries with
 * the same key. A funding check the provider cannot answer now is left to the next poll.
 * What counts as received is the USDC the chain's receipts show reaching the customer's
 * wallet; a delivery already counted by another payout or payment is never counted again.
 */
import { ConversionRefused } from '../adapters/conversion/conversion-provider.js';
import type { DeliveryReader } from '../adapters/conversion/conversion-provider.js';
import { FUNDING_AMOUNT_TOO_LOW, FUNDING_ROUTE_UNAVAILABLE, type FundingProvider, type FundingTransfer } from '../adapters/conversion/funding-provider.js';
import type { CustomerWalletProvider } from '../adapters/wallet-provider/customer-wallets.js';
import type { ChainSubject } from '../chain/chain-facts.js';
import type { DeliveryClaims } from '../payments/delivery-claims.js';
import type { EffectContext, EffectHandlers } from '../runtime/actor-kind.js';
import { reportToSelf } from '../runtime/effect-report.js';
import type { ErrorCode } from '../errors/error-codes.js';
import type { PaymentChain } from '../../machines/payment/index.js';
import type { payoutMachine, PayoutEvent, ReportedTransfer } from '../../machines/payout/index.js';
import { payoutListingEffects, type PayoutListingDependencies } from './payout-listing.js';
import { payoutSendEffects, type PayoutSendDependencies } from './payout-sends.js';
import { payoutBridgeEffects, type PayoutBridgeDependencies } from './payout-bridges.js';

export interface PayoutEffectDependencies {
  wallets: CustomerWalletProvider;
  /** Null on a node with no conversion provider: its payouts fail to prepare with PAYOUT_BRIDGE_QUOTE_FAILED. */
  funding: FundingProvider | null;
  deliveries: DeliveryReader;
  claims: DeliveryClaims;
  /** Where USDC is delivered: the settlement chain and its USDC. */
  settlement: { chain: PaymentChain; usdc: `0x${string}` } | null;
  /** Subscribes the payout to the chain's USDC transfers into the customer's wallet; null without a chain-facts reader. */
  watch: ((subject: ChainSubject, owner: { kind: string; id: string }) => Promise<void>) | null;
  /** How listings are made: null on a node that creates no deposits (its confirms fail with CASHOUT_LISTING_UNAVAILABLE). */
  listings: PayoutListingDependencies | null;
  /** What a customer's wallet holds on the settlement chain, for the wallet check; null without a chain (no check). */
  balances: WalletBalances | null;
  /** How USDC on Base is sent to a customer's address: null on a node without a chain, relayer or payout signer. */
  sends: PayoutSendDependencies | null;
  /** How a bridge's progress is read: null on a node without a conversion provider (its bridges wait). */
  bridges: PayoutBridgeDependencies | null;
}

export interface WalletBalances {
  /** USDC base units `address` holds on the settlement chain now. */
  usdcOf(address: `0x${string}`): Promise<bigint>;
}

const iso = (context: EffectContext) => new Date(context.clock.now()).toISOString();

/** Document 2's code for a refused or failed funding quote. */
function quoteFailureCode(error: unknown): ErrorCode {
  if (error instanceof ConversionRefused) {
    if (error.code === FUNDING_AMOUNT_TOO_LOW) return 'PAYOUT_FUNDING_AMOUNT_TOO_LOW';
    if (error.code === FUNDING_ROUTE_UNAVAILABLE) return 'PAYOUT_ROUTE_UNQUOTABLE';
  }
  return 'PAYOUT_BRIDGE_QUOTE_FAILED';
}

export function payoutEffects(deps: PayoutEffectDependencies): EffectHandlers<typeof payoutMachine> {
  const failed = (context: EffectContext, code: ErrorCode, message: string) =>
    reportToSelf<PayoutEvent>(context, { type: 'PREPARATION_FAILED', code, message, at: iso(context) });

  /** A transfer as the payout sees it: the USDC its delivery moved to the wallet, read from the chain. */
  const observe = async (payoutId: string, wallet: `0x${string}`, transfer: FundingTransfer, context: EffectContext): Promise<ReportedTransfer> => {
    const reported: ReportedTransfer = {
      id: transfer.id,
      status: transfer.status,
      originAmount: transfer.originAmount.toString(),
      startedAt: transfer.startedAt,
      swept: transfer.swept,
      sourceTransactionHash: transfer.sourceTransactionHash,
      deliveredUsdc: '0',
      deliveryTransactionHash: null,
      refundTransactionHash: transfer.refundTransactionHash,
    };
    if (transfer.status !== 'delivered') return reported;
    const { settlement } = deps;
    const delivery = settlement ? await deps.deliveries.delivered(settlement.chain, transfer.destinationTransactionHashes, wallet, null) : null;
    // The provider says delivered and the chain does not show it (yet): still converting, as far as the payout counts.
    if (!settlement || !delivery) return { ...reported, status: 'converting' };
    if (!(await deps.claims.claim(settlement.chain.chainId, delivery.transactionHash, payoutId, iso(context)))) {
      context.logger.error({ payoutId, transactionHash: delivery.transactionHash }, 'the provider named a delivery another payout or payment already counted');
      return { ...reported, status: 'failed' };
    }
    return { ...reported, deliveredUsdc: delivery.netUsdc.toString(), deliveryTransactionHash: delivery.transactionHash };
  };

  return {
    ...payoutListingEffects(deps.listings, deps.watch),
    ...payoutSendEffects(deps.sends),
    ...payoutBridgeEffects(deps.bridges),
    async checkWallet(params: { payoutId: string; walletAddress: string }, context: EffectContext) {
      if (!deps.balances) return;
      const balance = await deps.balances.usdcOf(params.walletAddress as `0x${string}`);
      await reportToSelf<PayoutEvent>(context, { type: 'WALLET_CHECKED', balanceUsdc: balance.toString(), at: iso(context) });
    },
    async preparePayout(params, context) {
      let wallet: Awaited<ReturnType<CustomerWalletProvider['walletFor']>>;
      try {
        wallet = await deps.wallets.walletFor(params.customerEmail);
      } catch (error) {
        context.logger.warn({ err: error, payoutId: params.payoutId }, 'the wallet provider could not prepare the customer’s wallet');
        return failed(context, 'PAYOUT_EMBEDDED_WALLET_FAILED', 'the customer’s wallet could not be prepared; retry with the same Idempotency-Key');
      }
      if (!deps.funding || !deps.settlement)
        return failed(context, 'PAYOUT_BRIDGE_QUOTE_FAILED', 'this node has no conversion provider to fund payouts through');
      try {
        const quote = await deps.funding.openFunding({
          reference: params.payoutId,
          originChainId: params.funding.chainId,
          originTokenAddress: params.funding.tokenAddress,
          refundAddress: params.funding.refundAddress,
          recipient: wallet.address,
          destinationChainId: deps.settlement.chain.chainId,
          destinationTokenAddress: deps.settlement.usdc,
          amount: BigInt(params.depositUsdc),
          appFees: params.appFees.map((fee) => ({ recipient: fee.recipient as `0x${string}`, feeBps: fee.feeBps })),
        });
        await reportToSelf<PayoutEvent>(context, {
          type: 'PREPARED',
          walletAddress: wallet.address,
          walletUserId: wallet.userId,
          requestId: quote.requestId,
          depositAddress: quote.depositAddress,
          fundingAmount: quote.originAmount.toString(),
          at: iso(context),
        });
      } catch (error) {
        context.logger.warn({ err: error, payoutId: params.payoutId }, 'the conversion provider did not quote the funding');
        const code = quoteFailureCode(error);
        const message =
          error instanceof ConversionRefused
            ? `the conversion provider refused the funding route: ${error.message}`
            : 'the funding could not be quoted; retry with the same Idempotency-Key, or fund with another token';
        await failed(context, code, message);
      }
    },
    async watchWallet(params) {
      await deps.watch?.({ address: params.walletAddress as `0x${string}` }, { kind: 'payout', id: params.payoutId });
    },
    async checkFunding(params, context) {
      if (!deps.funding) return;
      let transfers: FundingTransfer[];
      try {
        transfers = (await deps.funding.activity(params.requestId)).transfers;
      } catch (error) {
        context.logger.warn({ err: error, payoutId: params.payoutId }, 'the conversion provider did not answer; the next check asks again');
        return;
      }
      const reported: ReportedTransfer[] = [];
      for (const transfer of transfers) reported.push(await observe(params.payoutId, params.walletAddress as `0x${string}`, transfer, context));
      await reportToSelf<PayoutEvent>(context, { type: 'FUNDING_OBSERVED', transfers: reported, at: iso(context) });
    },
  };
}
