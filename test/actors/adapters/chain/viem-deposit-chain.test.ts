/**
 * The escrow's dust threshold as the node reads it: the deployed escrow's, and 0 from an escrow
 * deployed before it swept dust (a local chain kept from then), which has no such function and
 * sweeps nothing; a node that cannot reach the chain fails, to be asked again.
 */
import test from 'ava';
import { createPublicClient, http, type PublicClient } from 'viem';
import { ViemDepositChain } from '../../../../actors/adapters/chain/viem-deposit-chain.js';
import { LOCAL_DUST_THRESHOLD } from '../../../../indexer/chain/deploy.js';
import { startLocalChain, type LocalChain } from '../../../../indexer/chain/index.js';

let chain: LocalChain;
test.before(async () => {
  chain = await startLocalChain();
});
test.after.always(() => chain?.stop());

const targetsWith = (escrow: `0x${string}`) => ({
  chainId: chain.chainId,
  usdc: chain.usdc,
  escrow,
  depositAssertions: chain.depositAssertions,
  batchExecutor: chain.batchExecutor,
});

test('the deployed escrow’s threshold; 0 from a contract without one; an unreachable chain is an error', async (t) => {
  const client = chain.publicClient as PublicClient;
  t.is(await new ViemDepositChain(client, targetsWith(chain.escrow)).dustThreshold(), LOCAL_DUST_THRESHOLD);
  // MockUSDC stands in for an escrow from before dust: the call reverts without data.
  t.is(await new ViemDepositChain(client, targetsWith(chain.usdc)).dustThreshold(), 0n);
  const unreachable = createPublicClient({ transport: http('http://127.0.0.1:9', { retryCount: 0, timeout: 2_000 }) }) as PublicClient;
  await t.throwsAsync(new ViemDepositChain(unreachable, targetsWith(chain.escrow)).dustThreshold());
});
