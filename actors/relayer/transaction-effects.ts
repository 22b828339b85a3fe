/**
 * The effects of the transaction machine: each asks the chain one thing and reports
 * the answer to its own transaction as an event. They run at least once, so each is
 * safe to run again: a report carries the effect id in its message id (a second run's
 * report is the first one's, replayed), the wallet's nonce is asked for with one
 * message id per effect (a second run gets the same nonce), and signing is
 * deterministic, so a second run signs the same bytes.
 */
import { keccak256 } from 'viem';
import { CommandRejectedError, UnknownActorError } from '../errors.js';
import type { EffectContext, EffectHandlers } from '../runtime/actor-kind.js';
import { walletKind } from '../kinds/wallet-kind.js';
import { reportToSelf } from '../runtime/effect-report.js';
import { bumpedFees, firstFees, type transactionMachine, walletId, type Attempt, type Fees, type Hex, type TransactionEvent } from '../../machines/index.js';
import type { ChainCall, RelayerChain } from '../adapters/chain/relayer-chain.js';

type SignParams = ChainCall & { transactionId: string; chainId: number; gasLimit: bigint; cap: bigint };
type ReplacementParams = SignParams & { nonce: bigint; kind: Attempt['kind']; previous: Fees | null };
type CheckParams = ChainCall & { transactionId: string; nonce: bigint; hashes: Hex[]; raw: Hex | null; confirmations: number };

export function transactionEffects(chain: RelayerChain): EffectHandlers<typeof transactionMachine> {
  return {
    async estimate(params: ChainCall, context: EffectContext) {
      const estimate = await chain.estimateGas(params);
      const at = context.clock.now();
      await reportToSelf<TransactionEvent>(
        context,
        'revert' in estimate
          ? { type: 'SIMULATION_REVERTED', reason: estimate.revert.reason, revertData: estimate.revert.data, at }
          : { type: 'ESTIMATED', gasLimit: estimate.gasLimit, at },
      );
    },

    async sign(params: SignParams, context: EffectContext) {
      const nonce = await assignNonce(chain, params, context);
      const fees = firstFees(await chain.fees(), params.cap);
      const attempt = await signAttempt(chain, { ...params, nonce, gas: params.gasLimit, ...fees }, 'ORIGINAL', context);
      await reportToSelf<TransactionEvent>(context, { type: 'SIGNED', nonce, ...attempt });
    },

    async signReplacement(params: ReplacementParams, context: EffectContext) {
      const network = await chain.fees();
      const fees = params.previous ? bumpedFees(params.previous, network, params.cap) : firstFees(network, params.cap);
      if (!fees) {
        context.logger.warn(
          { transactionId: params.transactionId, cap: params.cap.toString() },
          'no replacement fits under the fee cap; the transaction waits at its fees',
        );
        await reportToSelf<TransactionEvent>(context, { type: 'BUMP_CAPPED', at: context.clock.now() });
        return;
      }
      const attempt = await signAttempt(chain, { ...params, gas: params.gasLimit, ...fees }, params.kind, context);
      await reportToSelf<TransactionEvent>(context, { type: 'REPLACEMENT_SIGNED', ...attempt });
    },

    async broadcast(params: { hash: Hex; raw: Hex }, context: EffectContext) {
      const result = await chain.broadcast(params.raw);
      const at = context.clock.now();
      if (result === 'NONCE_TOO_LOW') await reportToSelf<TransactionEvent>(context, { type: 'NONCE_TOO_LOW', at });
      else {
        // A node that finds a replacement underpriced keeps the attempt before it; the next bump pays more.
        if (result === 'UNDERPRICED') context.logger.warn({ hash: params.hash }, 'the node kept the earlier attempt: this one pays too little to replace it');
        await reportToSelf<TransactionEvent>(context, { type: 'BROADCAST', hash: params.hash, at });
      }
    },

    async checkReceipt(params: CheckParams, context: EffectContext) {
      if (await reportReceipt(chain, params, context)) return;
      if ((await chain.nonce(params.from, 'latest')) > params.nonce) {
        // The nonce was spent; one of ours may have been mined since the first look.
        if (await reportReceipt(chain, params, context)) return;
        await reportToSelf<TransactionEvent>(context, { type: 'NONCE_USED_ELSEWHERE', at: context.clock.now() });
        return;
      }
      // Unmined: send the bytes again, in case the node's pool let them go.
      const resent = params.raw ? await chain.broadcast(params.raw) : null;
      await reportToSelf<TransactionEvent>(context, { type: 'NOT_MINED', included: resent === 'NONCE_TOO_LOW', at: context.clock.now() });
    },
  };
}

/** Reports the receipt of the latest attempt that has one, if any does, and says whether it did. */
async function reportReceipt(chain: RelayerChain, params: CheckParams, context: EffectContext): Promise<boolean> {
  for (const hash of [...params.hashes].reverse()) {
    const receipt = await chain.receipt(hash);
    if (!receipt) continue;
    // A receipt is one confirmation; the head is asked only when more are wanted.
    if (params.confirmations > 1 && (await chain.blockNumber()) - receipt.blockNumber + 1n < BigInt(params.confirmations)) {
      await reportToSelf<TransactionEvent>(context, { type: 'NOT_MINED', included: true, at: context.clock.now() });
      return true;
    }
    const revert = receipt.succeeded
      ? null
      : await chain.revertOf(receipt, {
          from: params.from,
          to: params.to,
          data: params.data,
          value: params.value,
          authorizationList: params.authorizationList,
        });
    // At least once: a rerun of this effect counts the receipt again, which a rate over minutes hardly shows.
    context.metrics.relayerReceipt(params.from, receipt.succeeded, receipt.gasUsed, receipt.effectiveGasPrice);
    await reportToSelf<TransactionEvent>(context, {
      type: 'RECEIPT',
      hash,
      succeeded: receipt.succeeded,
      blockNumber: receipt.blockNumber,
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: receipt.effectiveGasPrice,
      reason: receipt.succeeded ? null : (revert?.reason ?? 'reverted'),
      revertData: revert?.data ?? null,
      at: context.clock.now(),
    });
    return true;
  }
  return false;
}

async function signAttempt(
  chain: RelayerChain,
  transaction: ChainCall & Fees & { nonce: bigint; gas: bigint },
  kind: Attempt['kind'],
  context: EffectContext,
): Promise<Attempt> {
  const raw = await chain.sign(transaction);
  return {
    hash: keccak256(raw),
    raw,
    maxFeePerGas: transaction.maxFeePerGas,
    maxPriorityFeePerGas: transaction.maxPriorityFeePerGas,
    kind,
    signedAt: context.clock.now(),
  };
}

/**
 * The next nonce of the sending wallet, opening the wallet at the chain's pending
 * nonce the first time a key sends. The message id is the effect's, so a second run
 * of the effect gets the nonce the first run got.
 */
async function assignNonce(chain: RelayerChain, params: SignParams, context: EffectContext): Promise<bigint> {
  const wallet = walletId(params.chainId, params.from);
  const chainNonce = await chain.nonce(params.from, 'pending');
  const ask = async () => {
    const reply = await context.ask(
      walletKind,
      wallet,
      { type: 'ASSIGN_NONCE', transactionId: params.transactionId, chainNonce, at: context.clock.now() },
      { messageId: `${context.effectId}:nonce` },
    );
    if (reply.nonce === undefined) throw new Error(`wallet ${wallet} answered ASSIGN_NONCE without a nonce`);
    return reply.nonce;
  };
  try {
    return await ask();
  } catch (error) {
    if (!(error instanceof UnknownActorError)) throw error;
  }
  try {
    await context.ask(
      walletKind,
      wallet,
      { type: 'OPEN', chainId: params.chainId, address: params.from, nextNonce: chainNonce, at: context.clock.now() },
      { messageId: `open:${wallet}` },
    );
  } catch (error) {
    // Another transaction opened it first.
    if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
  }
  return ask();
}
