import test from 'ava';
import { encodeFunctionData } from 'viem';
import { mockUSDCAbi } from '../../../indexer/chain/index.js';
import { alice, bob, carol } from '../../support/chain.js';
import { relayerAccount, startTestRelayer, usdcTransfer, type TestRelayer } from '../../support/relayer.js';

const runs: TestRelayer[] = [];
const start = async (...args: Parameters<typeof startTestRelayer>) => {
  const run = await startTestRelayer(...args);
  runs.push(run);
  return run;
};
test.after.always(() => Promise.all(runs.map((run) => run.stop())));

/** The private key's hex, without 0x: what a leak into a log would contain. */
const keyHex = () => relayerAccount.getHdKey().privateKey!.reduce((hex, byte) => hex + byte.toString(16).padStart(2, '0'), '');

test('a transaction is estimated, signed, sent and mined, and its owner hears MINED once', async (t) => {
  const run = await start();
  const owner = await run.owner('o1');
  await run.local.mintUsdc(relayerAccount.address, 5_000_000n);
  const before = await run.minedNonce();
  const prepared = await run.relayer.send('tx_one', { to: run.local.usdc, data: usdcTransfer(bob.address, 1_000_000n), value: 0n, purpose: 'transfer', owner });
  t.is(prepared.status, 'PREPARED');
  await run.system.effectsIdle();

  const view = await run.view('tx_one');
  t.is(view.status, 'MINED');
  t.is(view.nonce, String(before));
  t.is(view.attempts.length, 1);
  t.is(view.outcome!.hash, view.attempts[0]!.hash);
  const receipt = await run.local.publicClient.getTransactionReceipt({ hash: view.outcome!.hash! });
  t.is(receipt.status, 'success');
  t.is(receipt.from.toLowerCase(), relayerAccount.address.toLowerCase());
  t.deepEqual(await run.outcomesOf('o1'), [{ transactionId: 'tx_one', status: 'MINED', hash: view.outcome!.hash, reason: null }]);
  t.is(await run.minedNonce(), before + 1);

  const again = await run.relayer.send('tx_one', { to: run.local.usdc, data: usdcTransfer(bob.address, 1_000_000n), value: 0n, purpose: 'transfer', owner });
  await run.system.effectsIdle();
  t.is(again.status, 'PREPARED', 'the same id answers what its first PREPARE answered');
  t.is(await run.minedNonce(), before + 1, 'and sends nothing more');
  t.is((await run.outcomesOf('o1')).length, 1);
  t.false(
    run.logs.some((line) => line.toLowerCase().includes(keyHex())),
    'no log line holds the key',
  );
});

test('50 concurrent sends from one wallet get 50 consecutive nonces, and all are mined', async (t) => {
  const run = await start();
  const owner = await run.owner('many');
  await run.local.mintUsdc(relayerAccount.address, 50_000_000n);
  const before = await run.minedNonce();
  await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      run.relayer.send(`tx_many_${i}`, { to: run.local.usdc, data: usdcTransfer(carol.address, 1_000_000n), value: 0n, purpose: 'transfer', owner }),
    ),
  );
  await run.system.effectsIdle();
  const views = await Promise.all(Array.from({ length: 50 }, (_, i) => run.view(`tx_many_${i}`)));
  t.deepEqual(
    views.map((view) => view.status),
    Array(50).fill('MINED'),
  );
  const nonces = views.map((view) => Number(view.nonce)).sort((a, b) => a - b);
  t.deepEqual(
    nonces,
    Array.from({ length: 50 }, (_, i) => before + i),
  );
  t.is(await run.minedNonce(), before + 50);
  t.is((await run.outcomesOf('many')).length, 50);
  t.is(await run.local.publicClient.readContract({ address: run.local.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [carol.address] }), 50_000_000n);
});

test('a call that would revert fails with its decoded reason before it spends a nonce', async (t) => {
  const run = await start();
  const owner = await run.owner('poor');
  const before = await run.minedNonce();
  await run.relayer.send('tx_poor', { to: run.local.usdc, data: usdcTransfer(bob.address, 1n), value: 0n, purpose: 'transfer', owner });
  await run.system.effectsIdle();
  const view = await run.view('tx_poor');
  t.is(view.status, 'FAILED');
  t.is(view.nonce, null);
  t.is(view.outcome!.reason, `ERC20InsufficientBalance(${relayerAccount.address}, 0, 1)`);
  t.deepEqual(await run.outcomesOf('poor'), [{ transactionId: 'tx_poor', status: 'FAILED', hash: null, reason: view.outcome!.reason }]);
  t.is(await run.minedNonce(), before);
});

test('a transaction that reverts on chain reaches its owner FAILED with the decoded reason', async (t) => {
  const run = await start();
  const owner = await run.owner('race');
  await run.local.mintUsdc(alice.address, 3_000_000n);
  await run.local.confirm(
    await run.local
      .walletFor(alice)
      .writeContract({ address: run.local.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [relayerAccount.address, 3_000_000n] }),
  );
  await run.local.testClient.setAutomine(false);
  const pull = encodeFunctionData({ abi: mockUSDCAbi, functionName: 'transferFrom', args: [alice.address, bob.address, 3_000_000n] });
  await run.relayer.send('tx_pull', { to: run.local.usdc, data: pull, value: 0n, purpose: 'transferFrom', owner });
  await run.system.effectsIdle();
  t.is((await run.view('tx_pull')).step, 'waiting', 'it passed estimation and was sent');
  // Alice withdraws the allowance in the same block, paying a higher tip, so her transaction goes first.
  const block = await run.local.publicClient.getBlock();
  await run.local.walletFor(alice).writeContract({
    address: run.local.usdc,
    abi: mockUSDCAbi,
    functionName: 'approve',
    args: [relayerAccount.address, 0n],
    // Estimated on the pool's state, where the allowance is already spent, it would run out of gas.
    gas: 80_000n,
    maxFeePerGas: block.baseFeePerGas! * 4n + 50_000_000_000n,
    maxPriorityFeePerGas: 50_000_000_000n,
  });
  await run.local.testClient.mine({ blocks: 1 });
  await run.clock.advance(1_000);
  await run.system.effectsIdle();

  const failed = await run.view('tx_pull');
  t.is(failed.status, 'FAILED');
  t.is(failed.outcome!.reason, `ERC20InsufficientAllowance(${relayerAccount.address}, 0, 3000000)`);
  t.truthy(failed.outcome!.blockNumber);
  t.is(failed.outcome!.hash, failed.attempts[0]!.hash);
  t.deepEqual(await run.outcomesOf('race'), [{ transactionId: 'tx_pull', status: 'FAILED', hash: failed.outcome!.hash, reason: failed.outcome!.reason }]);
  await run.local.testClient.setAutomine(true);
});

test('a stuck transaction is replaced by one paying more, and only the replacement is mined', async (t) => {
  const run = await start();
  const owner = await run.owner('stuck');
  await run.local.mintUsdc(relayerAccount.address, 1_000_000n);
  await run.local.testClient.setAutomine(false);
  const before = await run.minedNonce();
  await run.relayer.send('tx_stuck', { to: run.local.usdc, data: usdcTransfer(bob.address, 1_000_000n), value: 0n, purpose: 'transfer', owner });
  await run.system.effectsIdle();
  const first = await run.view('tx_stuck');
  t.is(first.step, 'waiting');
  // The network's price jumps past what the first attempt offered: the next block leaves it out.
  const base = (await run.local.publicClient.getBlock()).baseFeePerGas!;
  await run.local.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: base * 20n });
  await run.local.testClient.mine({ blocks: 1 });
  t.is(await run.minedNonce(), before, 'the first attempt was not mined');

  await run.clock.advance(5_000);
  await run.system.effectsIdle();
  const bumped = await run.view('tx_stuck');
  t.is(bumped.attempts.length, 2);
  t.is(bumped.attempts[1]!.kind, 'FEE_BUMP');
  t.true(BigInt(bumped.attempts[1]!.maxFeePerGas) > BigInt(first.attempts[0]!.maxFeePerGas));
  t.is(bumped.nonce, first.nonce, 'a replacement keeps the nonce');

  await run.local.testClient.mine({ blocks: 1 });
  await run.clock.advance(1_000);
  await run.system.effectsIdle();
  const mined = await run.view('tx_stuck');
  t.is(mined.status, 'MINED');
  t.is(mined.outcome!.hash, bumped.attempts[1]!.hash);
  t.is(await run.minedNonce(), before + 1, 'one transaction took the nonce');
  t.deepEqual(
    (await run.outcomesOf('stuck')).map((outcome) => outcome.status),
    ['MINED'],
  );
  await t.throwsAsync(run.local.publicClient.getTransactionReceipt({ hash: first.attempts[0]!.hash as `0x${string}` }));
  await run.local.testClient.setAutomine(true);
});

test('a transaction its owner cancels while it waits is REPLACED by a transfer of nothing, and its call never runs', async (t) => {
  const run = await start();
  const owner = await run.owner('cancel');
  await run.local.mintUsdc(relayerAccount.address, 1_000_000n);
  await run.local.testClient.setAutomine(false);
  const before = await run.minedNonce();
  await run.relayer.send('tx_cancel', { to: run.local.usdc, data: usdcTransfer(bob.address, 1_000_000n), value: 0n, purpose: 'transfer', owner });
  await run.system.effectsIdle();
  await run.relayer.cancel('tx_cancel');
  await run.system.effectsIdle();
  const cancelling = await run.view('tx_cancel');
  t.deepEqual(
    cancelling.attempts.map((attempt) => attempt.kind),
    ['ORIGINAL', 'CANCELLATION'],
  );
  await run.local.testClient.mine({ blocks: 1 });
  await run.clock.advance(1_000);
  await run.system.effectsIdle();

  const replaced = await run.view('tx_cancel');
  t.is(replaced.status, 'REPLACED');
  t.is(replaced.outcome!.hash, cancelling.attempts[1]!.hash);
  t.is(await run.minedNonce(), before + 1);
  t.deepEqual(
    (await run.outcomesOf('cancel')).map((outcome) => outcome.status),
    ['REPLACED'],
  );
  const balance = await run.local.publicClient.readContract({
    address: run.local.usdc,
    abi: mockUSDCAbi,
    functionName: 'balanceOf',
    args: [relayerAccount.address],
  });
  t.is(balance, 1_000_000n, 'the transfer never ran');
  await t.throwsAsync(run.relayer.cancel('tx_cancel'), { message: /already ended REPLACED/ });
  await run.local.testClient.setAutomine(true);
});

test('a transaction whose nonce another transaction of the key spent is DROPPED', async (t) => {
  const run = await start();
  const owner = await run.owner('dropped');
  await run.local.testClient.setAutomine(false);
  await run.relayer.send('tx_dropped', { to: relayerAccount.address, data: '0x', value: 1n, purpose: 'transfer', owner });
  await run.system.effectsIdle();
  const ours = await run.view('tx_dropped');
  // Somebody else with the key sends at the same nonce, paying more.
  const wallet = run.local.walletFor(relayerAccount);
  const block = await run.local.publicClient.getBlock();
  const theirs = await wallet.sendTransaction({
    to: bob.address,
    value: 2n,
    nonce: Number(ours.nonce),
    maxFeePerGas: block.baseFeePerGas! * 10n + 10_000_000_000n,
    maxPriorityFeePerGas: 10_000_000_000n,
  });
  await run.local.testClient.mine({ blocks: 1 });
  await run.clock.advance(1_000);
  await run.system.effectsIdle();
  const dropped = await run.view('tx_dropped');
  t.is(dropped.status, 'DROPPED');
  t.is(dropped.outcome!.hash, null);
  t.not(theirs, ours.attempts[0]!.hash);
  t.deepEqual(
    (await run.outcomesOf('dropped')).map((outcome) => outcome.status),
    ['DROPPED'],
  );
  await run.local.testClient.setAutomine(true);
});
