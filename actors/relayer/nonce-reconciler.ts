/**
 * What a node does with its sending wallets when it starts: it sets each wallet's nonces
 * against the chain it reaches. A wallet that gave out nonces the chain never took, with
 * no transaction under way holding them, gives them out again (the wallet machine's
 * RECONCILE); a nonce nobody holds below one that is held is spent on a transfer of
 * nothing to the wallet itself, so the held transaction can mine instead of waiting
 * behind the gap forever.
 *
 * Only a node that is alone does it. In a cluster the other nodes send from the same wallets
 * while this one starts (a rolling restart): a nonce one of them has just been given, and
 * not yet prepared, looks like a gap and would be spent on a transfer of nothing, or given
 * out a second time, and the transaction it was given to would fail. A gap left by a node
 * killed mid-send is then left for an operator (the RelayerNonceStuck alert) or for the
 * cluster's next cold start.
 */
import type { Logger } from 'pino';
import { CANCELLATION_GAS, firstFees, nonceHoles, walletId, type Hex } from '../../machines/index.js';
import { transactionKind } from '../kinds/transaction-kind.js';
import { walletKind } from '../kinds/wallet-kind.js';
import type { ActorSystem } from '../runtime/actor-system.js';
import type { RelayerChain } from '../adapters/chain/relayer-chain.js';

/** Transactions whose nonce is theirs until they end. */
const UNDER_WAY = ['PREPARED', 'SUBMITTED'];

export interface NonceReconciliation {
  wallet: Hex;
  chainNonce: bigint;
  before: bigint;
  after: bigint;
  /** Nonces spent on transfers of nothing to fill gaps under held ones. */
  filled: bigint[];
}

export async function reconcileNonces(
  system: ActorSystem,
  chain: RelayerChain,
  options: {
    maxFeePerGas: bigint;
    now: () => number;
    logger: Logger;
    /** Nodes live in the cluster now, this one included (the shard leases'); 1 for a node alone. */
    liveNodes?: number;
  },
): Promise<NonceReconciliation[]> {
  const results: NonceReconciliation[] = [];
  if ((options.liveNodes ?? 1) > 1) {
    options.logger.info(
      { liveNodes: options.liveNodes, wallets: chain.wallets },
      'relayer wallet nonces not set against the chain: other nodes are sending from these wallets',
    );
    return results;
  }
  for (const address of chain.wallets) {
    const id = walletId(chain.chainId, address);
    const saved = await system.views(walletKind).findOne({ _id: id });
    // A wallet that never sent opens at the chain's pending nonce when it first does.
    if (!saved) continue;
    const before = BigInt(saved.view.nextNonce);
    const chainNonce = await chain.nonce(address, 'pending');
    const underWay = await system.views(transactionKind).find({ 'view.status': { $in: UNDER_WAY }, 'view.from': address });
    const held = underWay.flatMap(({ view }) => {
      return view.chainId === chain.chainId && view.nonce !== null ? [BigInt(view.nonce)] : [];
    });
    const reply = await system.ask(walletKind, id, { type: 'RECONCILE', chainNonce, heldNonces: held, seenNextNonce: before, at: options.now() });
    if (reply.nextNonce === undefined) throw new Error(`wallet ${id} answered RECONCILE without its next nonce`);
    const filled: bigint[] = [];
    for (const nonce of nonceHoles(chainNonce, held)) {
      const fees = firstFees(await chain.fees(), options.maxFeePerGas);
      const raw = await chain.sign({ from: address, to: address, data: '0x', value: 0n, nonce, gas: CANCELLATION_GAS, ...fees });
      await chain.broadcast(raw);
      filled.push(nonce);
    }
    const result = { wallet: address, chainNonce, before, after: reply.nextNonce, filled };
    if (result.after !== before || filled.length > 0) {
      options.logger.warn(
        { wallet: address, chainNonce: chainNonce.toString(), before: before.toString(), after: result.after.toString(), filled: filled.map(String) },
        'relayer wallet nonces set against the chain',
      );
    }
    results.push(result);
  }
  return results;
}
