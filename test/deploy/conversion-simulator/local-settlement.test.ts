/**
 * The local provider pays each conversion once even across a restart: payOnce, given the block
 * a conversion started paying at, pays only what the solver has not already sent since.
 */
import test from 'ava';
import { erc20Abi, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { LocalSettlement } from '../../../deploy/conversion-simulator/local-settlement.js';
import { startLocalChain } from '../../../indexer/chain/index.js';
import { USDC_DECIMALS } from '../../../machines/money.js';

test('a conversion paid in part before a restart is finished without paying any transfer twice', async (t) => {
  const chain = await startLocalChain();
  t.teardown(() => chain.stop());
  const settlement = new LocalSettlement(chain);
  await settlement.start();
  const usdc = { symbol: 'USDC', address: chain.usdc, decimals: USDC_DECIMALS };
  const customer = privateKeyToAccount(generatePrivateKey()).address;
  const feeWallet = privateKeyToAccount(generatePrivateKey()).address;
  const balance = (address: Address) => chain.publicClient.readContract({ address: chain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  const payouts = [
    { to: customer, amount: 101_000_001n },
    { to: feeWallet, amount: 3_000_000n },
  ];

  const since = (await settlement.latestBlock()) + 1n;
  // The first run paid the customer and died before the fee and before recording either.
  const [paidBefore] = await settlement.pay(usdc, payouts.slice(0, 1));
  const hashes = await settlement.payOnce(usdc, payouts, since);

  t.is(hashes[0], paidBefore);
  t.not(hashes[1], paidBefore);
  t.is(await balance(customer), 101_000_001n);
  t.is(await balance(feeWallet), 3_000_000n);
  t.deepEqual(await settlement.payOnce(usdc, payouts, since), hashes, 'a third run finds both paid');
  t.is(await balance(customer), 101_000_001n);
});
