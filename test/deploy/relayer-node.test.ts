import test from 'ava';
import { encodeFunctionData } from 'viem';
import { mockUSDCAbi } from '../../indexer/chain/index.js';
import { LOCAL_RELAYER_INDEX, anvilTestAccount } from '../../indexer/chain/dev-accounts.js';
import { startTestGateway } from '../support/gateway.js';

test('the embedded node sends its transactions from the local dev wallet through its relayer', async (t) => {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true });
  t.teardown(() => gateway.stop());
  const { node } = gateway;
  const local = node.chain!.localChain!;
  t.truthy(node.relayer);
  const to = anvilTestAccount(9).address;
  const data = encodeFunctionData({ abi: mockUSDCAbi, functionName: 'approve', args: [to, 1n] });
  await node.relayer!.send('tx_node', { to: local.usdc, data, value: 0n, purpose: 'approve', owner: null });
  await node.system.effectsIdle();
  const view = await node.relayer!.read('tx_node');
  t.is(view!.status, 'MINED');
  t.is(view!.from, anvilTestAccount(LOCAL_RELAYER_INDEX).address);
  const allowance = await local.publicClient.readContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'allowance', args: [view!.from, to] });
  t.is(allowance, 1n);
});

test('a node on a local chain with RELAYER_PRIVATE_KEYS sends from those keys', async (t) => {
  const key = anvilTestAccount(8).getHdKey().privateKey!;
  const hex = `0x${Buffer.from(key).toString('hex')}`;
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, RELAYER_PRIVATE_KEYS: hex });
  t.teardown(() => gateway.stop());
  const { node } = gateway;
  await node.relayer!.send('tx_keyed', { to: anvilTestAccount(9).address, data: '0x', value: 1n, purpose: 'probe', owner: null });
  await node.system.effectsIdle();
  const view = await node.relayer!.read('tx_keyed');
  t.is(view!.status, 'MINED');
  t.is(view!.from, anvilTestAccount(8).address);
});
