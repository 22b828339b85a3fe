/**
 * What a payout sends from the customer's wallet, each as one sponsored batch signed by the
 * payout signer under the payout-only policy and handed to the relayer, whose outcome comes
 * back to the payout as TRANSACTION_OUTCOME: USDC to the customer's own address on Base or to
 * the conversion provider's deposit address (`transfer`s of at most 1,000 USDC each, the
 * signer's cap per transfer), a listing's exit (`withdrawDeposit`, then the remainder's
 * transfers when it is sent on: one batch, so it is withdrawn and sent or neither), and a
 * relist (`setIntentAmountRange` of the listing). Run at
 * least once: the transaction's id is the payout's and the send's, so a second run finds the
 * one the first handed over and leaves it be.
 */
import { encodeFunctionData, type Hex } from 'viem';
import { batchTypedData, escrowFunctionsAbi, executeData, idHash, usdcFunctionsAbi, type BatchCall } from '../../machines/index.js';
import { PAYOUT_SIGNER_TRANSFER_CAP, type PayoutEvent } from '../../machines/payout/index.js';
import type { DepositChain } from '../adapters/chain/deposit-chain.js';
import type { EmbeddedWalletProvider } from '../adapters/wallet-provider/embedded-wallets.js';
import { PayoutPolicyRefused, PayoutSignerNotAttached } from '../adapters/wallet-provider/payout-signers.js';
import type { Relayer } from '../relayer/relayer.js';
import type { EffectContext } from '../runtime/actor-kind.js';
import { reportToSelf } from '../runtime/effect-report.js';

export const PAYOUT_SEND_PURPOSE = 'payoutSend';

export interface PayoutSendDependencies {
  chain: DepositChain;
  /** The payout signer's wallets. */
  wallets: EmbeddedWalletProvider;
  relayer: Relayer;
  /** How long a signed batch stays valid on chain. */
  batchTtlSeconds: bigint;
}

interface BatchParams {
  payoutId: string;
  send: number;
  transactionId: string;
  walletAddress: string;
}

export interface SendPayoutParams extends BatchParams {
  to: string;
  amountUsdc: string;
}

export interface ExitListingParams extends BatchParams {
  depositId: string;
  /** Where the remainder goes on; null when it stays in the wallet. */
  to: string | null;
  amountUsdc: string;
  /** A relist: the listing stays, its range set to this instead. */
  relist: { minUsdc: string; maxUsdc: string } | null;
}

/** `amount` in transfers of at most the signer's cap each, in order. */
export function transferCalls(usdc: Hex, to: Hex, amount: bigint): BatchCall[] {
  const calls: BatchCall[] = [];
  for (let left = amount; left > 0n; left -= left > PAYOUT_SIGNER_TRANSFER_CAP ? PAYOUT_SIGNER_TRANSFER_CAP : left) {
    const part = left > PAYOUT_SIGNER_TRANSFER_CAP ? PAYOUT_SIGNER_TRANSFER_CAP : left;
    calls.push({ target: usdc, value: 0n, data: encodeFunctionData({ abi: usdcFunctionsAbi, functionName: 'transfer', args: [to, part] }) });
  }
  return calls;
}

export function payoutSendEffects(deps: PayoutSendDependencies | null) {
  /** Signs `calls` in the customer's wallet and hands them to the relayer; a wallet that will not sign is SEND_REFUSED. */
  async function relay(params: BatchParams, calls: (targets: DepositChain['targets']) => BatchCall[], context: EffectContext): Promise<void> {
    const refused = (code: string, message: string) =>
      reportToSelf<PayoutEvent>(context, { type: 'SEND_REFUSED', send: params.send, code, message, at: new Date(context.clock.now()).toISOString() });
    if (!deps) return refused('CASHOUT_SEND_UNAVAILABLE', 'this node sends no payouts: it has no chain, relayer or payout signer');
    if (await deps.relayer.read(params.transactionId)) return;
    const wallet = await deps.wallets.wallet(params.walletAddress as Hex);
    if (!wallet) return refused('CASHOUT_SIGNER_NOT_ATTACHED', `the wallet provider holds no payout wallet ${params.walletAddress}`);
    const { targets } = deps.chain;
    const batch = calls(targets);
    const deadline = (await deps.chain.latestBlockTime()) + deps.batchTtlSeconds;
    const nonce = BigInt(idHash(`payout-send:${params.transactionId}`));
    let signature: Hex;
    let authorizationList: Awaited<ReturnType<typeof wallet.signAuthorization>>[];
    try {
      signature = await wallet.signBatch(batchTypedData(wallet.address, targets.chainId, batch, nonce, deadline));
      authorizationList = (await deps.chain.delegatesToExecutor(wallet.address))
        ? []
        : [
            await wallet.signAuthorization({
              contractAddress: targets.batchExecutor,
              chainId: targets.chainId,
              nonce: await deps.chain.accountNonce(wallet.address),
            }),
          ];
    } catch (error) {
      if (error instanceof PayoutSignerNotAttached || error instanceof PayoutPolicyRefused) return refused(error.code, error.message);
      throw error;
    }
    await deps.relayer.send(params.transactionId, {
      to: wallet.address,
      data: executeData(batch, nonce, deadline, signature),
      value: 0n,
      purpose: PAYOUT_SEND_PURPOSE,
      owner: { kind: 'payout', id: params.payoutId },
      authorizationList,
    });
    context.logger.info({ payoutId: params.payoutId, send: params.send, transactionId: params.transactionId }, 'payout batch handed to the relayer');
  }

  return {
    async sendPayout(params: SendPayoutParams, context: EffectContext) {
      await relay(params, (targets) => transferCalls(targets.usdc, params.to as Hex, BigInt(params.amountUsdc)), context);
    },
    async exitListing(params: ExitListingParams, context: EffectContext) {
      const { relist } = params;
      if (relist) {
        const range = { min: BigInt(relist.minUsdc), max: BigInt(relist.maxUsdc) };
        const data = encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'setIntentAmountRange', args: [BigInt(params.depositId), range] });
        return relay(params, (targets) => [{ target: targets.escrow, value: 0n, data }], context);
      }
      await relay(
        params,
        (targets) => [
          {
            target: targets.escrow,
            value: 0n,
            data: encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'withdrawDeposit', args: [BigInt(params.depositId)] }),
          },
          ...(params.to === null ? [] : transferCalls(targets.usdc, params.to as Hex, BigInt(params.amountUsdc))),
        ],
        context,
      );
    },
  };
}
