/** A maker's deposit on a local chain: approve the escrow, create the deposit, and read its id back. */
import { parseEventLogs, zeroAddress, type Address, type LocalAccount, type TransactionReceipt } from 'viem';
import { escrowAbi, mockUSDCAbi } from '../../indexer/chain/artifacts/index.js';
import type { LocalChain } from '../../indexer/chain/local-chain.js';

export interface DepositOptions {
  range?: { min: bigint; max: bigint };
  delegate?: Address;
  intentGuardian?: Address;
}

export async function depositOn(
  local: LocalChain,
  maker: LocalAccount,
  amount: bigint,
  options: DepositOptions = {},
): Promise<{ depositId: bigint; receipt: TransactionReceipt }> {
  const wallet = local.walletFor(maker);
  await local.confirm(await wallet.writeContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [local.escrow, amount] }));
  const receipt = await local.confirm(
    await wallet.writeContract({
      address: local.escrow,
      abi: escrowAbi,
      functionName: 'createDeposit',
      args: [local.usdc, amount, options.range ?? { min: 1_000_000n, max: amount }, options.delegate ?? zeroAddress, options.intentGuardian ?? zeroAddress],
    }),
  );
  const [received] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'DepositReceived' });
  if (!received) throw new Error('no DepositReceived');
  return { depositId: received.args.depositId, receipt };
}
