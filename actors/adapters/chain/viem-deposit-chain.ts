/** The node's DepositChain over the protocol's escrow, read with viem. */
import { BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError, getAddress, type PublicClient } from 'viem';
import type { DepositChain } from './deposit-chain.js';
import type { Hex } from '../../../machines/index.js';
import { escrowAbi } from '../../../indexer/chain/index.js';

/** EIP-7702: a delegated account's code is this prefix and the address of the code it runs. */
const DELEGATION_PREFIX = '0xef0100';

export class ViemDepositChain implements DepositChain {
  constructor(
    private readonly client: PublicClient,
    readonly targets: DepositChain['targets'],
  ) {}

  async depositCount(): Promise<bigint> {
    return this.client.readContract({ address: this.targets.escrow, abi: escrowAbi, functionName: 'depositCount', blockTag: 'pending' });
  }

  async depositorOf(depositId: bigint): Promise<Hex | null> {
    try {
      const deposit = await this.client.readContract({ address: this.targets.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [depositId] });
      return deposit.depositor;
    } catch (error) {
      if (error instanceof BaseError && error.walk((cause) => (cause as { errorName?: string }).errorName === 'DepositNotFound')) return null;
      throw error;
    }
  }

  async delegatesToExecutor(account: Hex): Promise<boolean> {
    const code = (await this.client.getCode({ address: account, blockTag: 'pending' })) ?? '0x';
    return code.toLowerCase() === `${DELEGATION_PREFIX}${getAddress(this.targets.batchExecutor).slice(2)}`.toLowerCase();
  }

  async accountNonce(account: Hex): Promise<number> {
    return this.client.getTransactionCount({ address: account, blockTag: 'pending' });
  }

  async latestBlockTime(): Promise<bigint> {
    return (await this.client.getBlock({ blockTag: 'latest' })).timestamp;
  }

  /**
   * An escrow deployed before it swept dust (a local chain kept from then) has no such
   * function and sweeps nothing: its threshold is 0. Any other failure is the caller's to retry.
   */
  async dustThreshold(): Promise<bigint> {
    try {
      return await this.client.readContract({ address: this.targets.escrow, abi: escrowAbi, functionName: 'dustThreshold' });
    } catch (error) {
      const missing =
        error instanceof BaseError &&
        error.walk((cause) => cause instanceof ContractFunctionZeroDataError || (cause instanceof ContractFunctionRevertedError && cause.data === undefined));
      if (missing) return 0n;
      throw error;
    }
  }
}
