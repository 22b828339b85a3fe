/**
 * The calls the node's payment flow will make, sent through the relayer on a local anvil:
 * signalIntent with the gating service's approval of the relayer as the intent's owner,
 * cancelIntent, and the orchestrator's own error when a call is refused.
 */
import test from 'ava';
import { encodeFunctionData, keccak256, parseEventLogs, stringToHex, zeroHash } from 'viem';
import { anvilTestAccount, escrowAbi, orchestratorAbi } from '../../../indexer/chain/index.js';
import { depositOn } from '../../support/local-deposit.js';
import { acceptCurrency, gatedParams } from '../../support/local-intent.js';
import { relayerAccount, startTestRelayer } from '../../support/relayer.js';

const VENMO = keccak256(stringToHex('venmo'));
const USD = keccak256(stringToHex('USD'));
const maker = anvilTestAccount(2);
const payee = anvilTestAccount(4);

test('signalIntent and cancelIntent go out through the relayer, and a refused cancel reaches the owner as the orchestrator error', async (t) => {
  const run = await startTestRelayer();
  t.teardown(() => run.stop());
  const { local } = run;
  const owner = await run.owner('payment');
  await local.mintUsdc(maker.address, 100_000_000n);
  const { depositId } = await depositOn(local, maker, 100_000_000n, { range: { min: 1_000_000n, max: 100_000_000n } });
  await local.confirm(
    await local
      .walletFor(maker)
      .writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, VENMO, keccak256(stringToHex('maker-id'))] }),
  );
  await acceptCurrency(local, maker, depositId, VENMO, USD, 1_020_000_000_000_000_000n);

  const params = await gatedParams(local, relayerAccount.address, {
    depositId,
    amount: 10_000_000n,
    to: payee.address,
    paymentMethod: VENMO,
    fiatCurrency: USD,
    conversionRate: 1_020_000_000_000_000_000n,
  });
  const signal = encodeFunctionData({ abi: orchestratorAbi, functionName: 'signalIntent', args: [params] });
  await run.relayer.send('tx_signal', { to: local.orchestrator, data: signal, value: 0n, purpose: 'signalIntent', owner });
  await run.system.effectsIdle();
  const signalled = await run.view('tx_signal');
  t.is(signalled.status, 'MINED');
  const receipt = await local.publicClient.getTransactionReceipt({ hash: signalled.outcome!.hash! });
  const [event] = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' });
  const intentHash = (event!.args as { intentHash: `0x${string}` }).intentHash;
  t.not(intentHash, zeroHash);

  const cancel = encodeFunctionData({ abi: orchestratorAbi, functionName: 'cancelIntent', args: [intentHash] });
  await run.relayer.send('tx_cancel_intent', { to: local.orchestrator, data: cancel, value: 0n, purpose: 'cancelIntent', owner });
  await run.system.effectsIdle();
  t.is((await run.view('tx_cancel_intent')).status, 'MINED');

  await run.relayer.send('tx_cancel_again', { to: local.orchestrator, data: cancel, value: 0n, purpose: 'cancelIntent', owner });
  await run.system.effectsIdle();
  const refused = await run.view('tx_cancel_again');
  t.is(refused.status, 'FAILED');
  t.is(refused.outcome!.reason, `IntentNotFound(${intentHash})`);
  t.deepEqual(
    (await run.outcomesOf('payment')).map((outcome) => [outcome.transactionId, outcome.status]),
    [
      ['tx_signal', 'MINED'],
      ['tx_cancel_intent', 'MINED'],
      ['tx_cancel_again', 'FAILED'],
    ],
  );
});
