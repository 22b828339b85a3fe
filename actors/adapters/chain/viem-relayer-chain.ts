/**
 * The relayer's chain over viem: a public client for questions, local accounts for
 * signing. Keys never leave the accounts: nothing here logs, returns or stores them.
 */
import { BaseError, keccak256, type Abi, type LocalAccount, type PublicClient } from 'viem';
import { delegationOf, type Fees, type Hex } from '../../../machines/transaction/index.js';
import type { BroadcastResult, ChainCall, ChainReceipt, RelayerChain, Revert, UnsignedTransaction } from './relayer-chain.js';
import { describeRevert, isRevert, revertDataOf } from '../../relayer/revert-reason.js';

/** Estimates are of the state now; the state the transaction meets may cost a little more. */
const GAS_HEADROOM = { numerator: 6n, denominator: 5n };

/**
 * Node answers to a raw transaction, by the words geth, reth, anvil and their kin use.
 * Paying under the block's base fee is underpriced too: the fees have to rise, by a bump.
 */
const BROADCAST_REFUSALS: Array<[RegExp, BroadcastResult]> = [
  [/already known|known transaction|already imported|transaction already exists/i, 'ALREADY_KNOWN'],
  [/nonce too low|nonce has already been used|invalid nonce|oldnonce/i, 'NONCE_TOO_LOW'],
  [/underpriced|fee too low|gas price too low|less than block base fee|fee cap less than block base fee/i, 'UNDERPRICED'],
];

export interface ViemRelayerChainOptions {
  client: PublicClient;
  accounts: readonly LocalAccount[];
  /** The contracts' ABIs, so a revert reads as the contract's own error. */
  errorAbi: Abi;
}

export class ViemRelayerChain implements RelayerChain {
  readonly chainId: number;
  readonly wallets: readonly Hex[];
  readonly #client: PublicClient;
  readonly #accounts: Map<string, LocalAccount>;
  readonly #abi: Abi;

  constructor(chainId: number, options: ViemRelayerChainOptions) {
    this.chainId = chainId;
    this.#client = options.client;
    this.#abi = options.errorAbi;
    this.#accounts = new Map(options.accounts.map((account) => [account.address.toLowerCase(), account]));
    this.wallets = options.accounts.map((account) => account.address);
  }

  async estimateGas(call: ChainCall): Promise<{ gasLimit: bigint } | { revert: Revert }> {
    try {
      const gas = await this.#client.estimateGas({ account: call.from, to: call.to, data: call.data, value: call.value, ...delegationOf(call) });
      return { gasLimit: (gas * GAS_HEADROOM.numerator) / GAS_HEADROOM.denominator };
    } catch (error) {
      if (!isRevert(error)) throw error;
      return { revert: describeRevert(revertDataOf(error), this.#abi) };
    }
  }

  async fees(): Promise<Fees> {
    const { maxFeePerGas, maxPriorityFeePerGas } = await this.#client.estimateFeesPerGas({ type: 'eip1559', chain: null });
    return { maxFeePerGas, maxPriorityFeePerGas };
  }

  async nonce(address: Hex, tag: 'latest' | 'pending'): Promise<bigint> {
    return BigInt(await this.#client.getTransactionCount({ address, blockTag: tag }));
  }

  async sign(transaction: UnsignedTransaction): Promise<Hex> {
    const account = this.#accounts.get(transaction.from.toLowerCase());
    if (!account?.signTransaction) throw new Error(`the relayer holds no key for ${transaction.from}`);
    const common = {
      chainId: this.chainId,
      nonce: Number(transaction.nonce),
      to: transaction.to,
      data: transaction.data,
      value: transaction.value,
      gas: transaction.gas,
      maxFeePerGas: transaction.maxFeePerGas,
      maxPriorityFeePerGas: transaction.maxPriorityFeePerGas,
    };
    const { authorizationList } = delegationOf(transaction);
    return authorizationList
      ? account.signTransaction({ ...common, type: 'eip7702', authorizationList })
      : account.signTransaction({ ...common, type: 'eip1559' });
  }

  async broadcast(raw: Hex): Promise<BroadcastResult> {
    try {
      const hash = await this.#client.request({ method: 'eth_sendRawTransaction', params: [raw] });
      if (hash.toLowerCase() !== keccak256(raw)) throw new Error(`the node answered ${hash} for a transaction that hashes to ${keccak256(raw)}`);
      return 'SENT';
    } catch (error) {
      const text = error instanceof BaseError ? `${error.details ?? ''} ${error.shortMessage}` : String(error);
      for (const [pattern, result] of BROADCAST_REFUSALS) if (pattern.test(text)) return result;
      throw error;
    }
  }

  async receipt(hash: Hex): Promise<ChainReceipt | null> {
    const receipt = await this.#client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof BaseError && error.name === 'TransactionReceiptNotFoundError') return null;
      throw error;
    });
    if (!receipt) return null;
    return {
      hash,
      succeeded: receipt.status === 'success',
      blockNumber: receipt.blockNumber,
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: receipt.effectiveGasPrice,
    };
  }

  async blockNumber(): Promise<bigint> {
    return this.#client.getBlockNumber({ cacheTime: 0 });
  }

  /**
   * A node that traces (anvil, geth with the debug API) gives the exact revert output.
   * Otherwise the call is run again on the state after its block and, failing that,
   * before it; either may differ from what the transaction met, so the reason can be missing.
   */
  async revertOf(receipt: ChainReceipt, call: ChainCall): Promise<Revert> {
    const traced = await this.#client
      .request({ method: 'debug_traceTransaction', params: [receipt.hash, { tracer: 'callTracer' }] } as never)
      .then((trace) => (trace as { output?: Hex; error?: string }) ?? null)
      .catch(() => null);
    if (traced?.error) return describeRevert(traced.output ?? null, this.#abi);
    for (const blockNumber of [receipt.blockNumber, receipt.blockNumber - 1n]) {
      try {
        await this.#client.call({ account: call.from, to: call.to, data: call.data, value: call.value, blockNumber, ...delegationOf(call) });
      } catch (error) {
        if (isRevert(error)) return describeRevert(revertDataOf(error), this.#abi);
        throw error;
      }
    }
    return { reason: 'reverted; the node could not say why', data: null };
  }
}
