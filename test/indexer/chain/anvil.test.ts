import test from 'ava';
import { startAnvil } from '../../../indexer/chain/anvil.js';

async function chainIdAt(rpcUrl: string): Promise<string> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
  });
  return ((await response.json()) as { result: string }).result;
}

test('anvil listens on a loopback port of its own with the chain id asked for, until stopped', async (t) => {
  const [first, second] = await Promise.all([startAnvil({ chainId: 8453 }), startAnvil()]);
  try {
    t.regex(first.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    t.not(first.rpcUrl, second.rpcUrl);
    t.is(await chainIdAt(first.rpcUrl), '0x2105');
    t.is(await chainIdAt(second.rpcUrl), '0x7a69');
  } finally {
    await first.stop();
    await second.stop();
  }
  await t.throwsAsync(chainIdAt(first.rpcUrl));
  await t.notThrowsAsync(first.stop());
});

test('an anvil that cannot start says why', async (t) => {
  const error = await t.throwsAsync(startAnvil({ chainId: -1 }));
  t.regex(error?.message ?? '', /anvil exited before listening: error: unexpected argument '-1'/);
});
