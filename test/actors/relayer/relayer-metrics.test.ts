/**
 * What a node's metrics say of its relayer: each mined transaction's receipt, gas and fee
 * by wallet, and the wallets' nonces (next, mined, under way) as a scrape reads them.
 */
import test from 'ava';
import { PrometheusMetrics } from '../../../actors/metrics/index.js';
import { relayerWalletReadings } from '../../../actors/relayer/index.js';
import { bob } from '../../support/chain.js';
import { parseExposition, sampleValue } from '../../support/prometheus-text.js';
import { relayerAccount, startTestRelayer, usdcTransfer } from '../../support/relayer.js';

test('a mined transaction counts its receipt, gas and fee for its wallet; the wallet reading follows its nonces', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  const run = await startTestRelayer({ metrics });
  t.teardown(() => run.stop());
  const wallet = relayerAccount.address.toLowerCase();
  const before = await run.minedNonce();
  t.deepEqual(
    await relayerWalletReadings(run.system, run.chain),
    { [wallet]: { nextNonce: before, minedNonce: before, underWay: 0 } },
    'a wallet that never sent',
  );

  const owner = await run.owner('o1');
  await run.local.mintUsdc(relayerAccount.address, 5_000_000n);
  await run.relayer.send('tx_metrics', { to: run.local.usdc, data: usdcTransfer(bob.address, 1_000_000n), value: 0n, purpose: 'transfer', owner });
  await run.system.effectsIdle();
  const view = await run.view('tx_metrics');
  t.is(view.status, 'MINED');
  const receipt = await run.local.publicClient.getTransactionReceipt({ hash: view.outcome!.hash! });

  metrics.observe({ relayerWallets: () => relayerWalletReadings(run.system, run.chain) });
  const f = parseExposition(await metrics.metrics());
  t.is(sampleValue(f, 'peer_relayer_receipts_total', { wallet, outcome: 'succeeded' }), 1);
  t.is(sampleValue(f, 'peer_relayer_receipts_total', { wallet, outcome: 'reverted' }), 0);
  t.is(sampleValue(f, 'peer_relayer_gas_used_total', { wallet }), Number(receipt.gasUsed));
  t.is(sampleValue(f, 'peer_relayer_fees_paid_wei_total', { wallet }), Number(receipt.gasUsed * receipt.effectiveGasPrice));
  t.is(sampleValue(f, 'peer_relayer_gas_price_gwei_count'), 1);
  t.is(sampleValue(f, 'peer_relayer_nonce_next', { wallet }), before + 1);
  t.is(sampleValue(f, 'peer_relayer_nonce_mined', { wallet }), before + 1);
  t.is(sampleValue(f, 'peer_relayer_transactions_under_way', { wallet }), 0);
});

test('a transaction the chain has not mined: the wallet gave out a nonce above the mined one and holds it under way', async (t) => {
  const run = await startTestRelayer();
  t.teardown(() => run.stop());
  const wallet = relayerAccount.address.toLowerCase();
  const owner = await run.owner('waiting');
  await run.local.mintUsdc(relayerAccount.address, 1_000_000n);
  await run.local.testClient.setAutomine(false);
  t.teardown(() => run.local.testClient.setAutomine(true));
  const before = await run.minedNonce();
  await run.relayer.send('tx_waiting', { to: run.local.usdc, data: usdcTransfer(bob.address, 1_000_000n), value: 0n, purpose: 'transfer', owner });
  await run.system.effectsIdle();
  t.is((await run.view('tx_waiting')).step, 'waiting');
  t.deepEqual(
    await relayerWalletReadings(run.system, run.chain),
    { [wallet]: { nextNonce: before + 1, minedNonce: before, underWay: 1 } },
    'what RelayerNonceStuck reads while the chain does not move',
  );

  await run.local.testClient.mine({ blocks: 1 });
  await run.clock.advance(1_000);
  await run.system.effectsIdle();
  t.is((await run.view('tx_waiting')).status, 'MINED');
  t.deepEqual(await relayerWalletReadings(run.system, run.chain), { [wallet]: { nextNonce: before + 1, minedNonce: before + 1, underWay: 0 } });
});
