import test from 'ava';
import type { Address, LocalAccount } from 'viem';
import { WalletTransfers } from '../../actors/chain/wallet-transfers.js';
import { mockUSDCAbi } from '../../indexer/chain/index.js';
import type { LocalChain } from '../../indexer/chain/local-chain.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { newWallet, signIn } from '../support/maker-sign-in.js';
import { untilOnClock } from '../support/real-time-poll.js';

const history = (gateway: TestGateway, headers: Record<string, string>, chain = 'base', token = 'usdc') =>
  gateway.request('GET', `/v2/transaction-history/${chain}/${token}`, { headers });

async function funded(local: LocalChain): Promise<LocalAccount> {
  const account = newWallet();
  await local.testClient.setBalance({ address: account.address, value: 10n ** 18n });
  return account;
}

async function send(local: LocalChain, from: LocalAccount, to: Address, amount: bigint): Promise<string> {
  const hash = await local.walletFor(from).writeContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'transfer', args: [to, amount] });
  await local.confirm(hash);
  return hash;
}

test('the signed-in wallet’s transfers on the local chain: what it received before signing in, sent and received after', async (t) => {
  t.timeout(120_000);
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, INDEXER_POLL_MS: 20 });
  t.teardown(() => gateway.stop());
  const local = gateway.node.chain!.localChain!;
  const [wallet, friend] = [await funded(local), await funded(local)];

  const minted = (await local.mintUsdc(wallet.address, 5_000_000n)).transactionHash;
  const maker = await signIn(gateway, wallet);
  const sent = await send(local, wallet, friend.address, 2_000_000n);
  await local.mintUsdc(friend.address, 1_000_000n);
  const received = await send(local, friend, wallet.address, 500_001n);

  const answer = await untilOnClock(
    gateway.clock,
    () => history(gateway, maker.headers),
    (value) => value.status === 200 && value.body.responseObject.assetTransfers.length === 3,
    'three transfers in the history',
  );
  const { responseObject } = answer.body;
  t.like(responseObject, { walletAddress: wallet.address, chain: 'base', chainId: local.chainId, tokenContract: local.usdc });
  const common = { chain: 'base', tokenContract: local.usdc };
  t.like(responseObject.assetTransfers[0], {
    ...common,
    txHash: received,
    from: friend.address,
    to: wallet.address,
    type: 'DEPOSIT',
    amountRaw: '500001',
    amountFormatted: '0.500001',
  });
  t.like(responseObject.assetTransfers[1], {
    ...common,
    txHash: sent,
    from: wallet.address,
    to: friend.address,
    type: 'SEND',
    amountRaw: '2000000',
    amountFormatted: '2',
  });
  t.like(responseObject.assetTransfers[2], {
    ...common,
    txHash: minted,
    from: '0x0000000000000000000000000000000000000000',
    to: wallet.address,
    type: 'DEPOSIT',
    amountRaw: '5000000',
    amountFormatted: '5',
  });
  const blocks = responseObject.assetTransfers.map((transfer: { blockNumber: number }) => transfer.blockNumber);
  t.deepEqual(
    blocks,
    [...blocks].sort((a, b) => b - a),
    'newest first',
  );
  for (const transfer of responseObject.assetTransfers) t.is(new Date(transfer.timestamp).toISOString(), transfer.timestamp);

  t.is((await history(gateway, maker.headers, 'BASE', 'USDC')).status, 200, 'keys and symbols in any case');

  for (const [chain, token, status, code] of [
    ['ethereum', 'usdc', 404, 'CHAIN_NOT_SUPPORTED'],
    ['solana', 'usdc', 404, 'CHAIN_NOT_SUPPORTED'],
    ['base', 'dai', 404, 'TOKEN_NOT_SUPPORTED'],
    ['ba_se', 'usdc', 400, undefined],
    ['base', 'us.dc', 400, undefined],
  ] as const) {
    const refused = await history(gateway, maker.headers, chain, token);
    t.is(refused.status, status, `${chain}/${token}`);
    t.is(refused.body.errorCode, code);
  }
  const anonymous = await history(gateway, {});
  t.is(anonymous.body.errorCode, 'TOKEN_MISSING');

  // The indexer gone: unavailable for now, with when to retry.
  await gateway.node.chain!.indexer!.stop();
  const down = await history(gateway, maker.headers);
  t.is(down.status, 503);
  t.is(down.body.errorCode, 'INDEXER_UNAVAILABLE');
  t.is(down.headers.get('retry-after'), '1');
});

test('a wallet the indexer does not watch yet is watched by its first history read', async (t) => {
  t.timeout(120_000);
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, INDEXER_POLL_MS: 20 });
  t.teardown(() => gateway.stop());
  const transfers = new WalletTransfers(gateway.node.chain!.client);
  const stranger = newWallet().address;
  const page = await transfers.history(stranger);
  t.deepEqual([page.wallet, page.transfers], [stranger, []]);
  t.is((await transfers.chain()).chainId, gateway.node.chain!.localChain!.chainId);
  t.true(gateway.node.chain!.indexer!.follower.isWatched(stranger));
});

test('one wallet’s reads are limited per minute with the rate-limit headers; a node without a chain has no history', async (t) => {
  const gateway = await startTestGateway({ TRANSACTION_HISTORY_PER_MINUTE: 3 });
  t.teardown(() => gateway.stop());
  const [alice, bob] = [await signIn(gateway), await signIn(gateway)];
  for (let i = 0; i < 3; i++) {
    const answer = await history(gateway, alice.headers);
    t.is(answer.status, 503);
    t.is(answer.body.errorCode, 'TRANSACTION_HISTORY_UNAVAILABLE');
    t.is(answer.headers.get('x-rate-limit-remaining'), String(2 - i));
  }
  const limited = await history(gateway, alice.headers);
  t.is(limited.status, 429);
  t.is(limited.body.errorCode, undefined);
  t.regex(limited.headers.get('x-retry-after')!, /^\d+$/);
  t.is(limited.headers.get('x-rate-limit-remaining'), '0');
  t.true(Date.parse(limited.headers.get('x-rate-limiter-resets-at')!) > Date.now());
  // Another session of the same wallet shares its budget; another wallet has its own.
  const again = await signIn(gateway, alice.account);
  t.is((await history(gateway, again.headers)).status, 429);
  t.is((await history(gateway, bob.headers)).status, 503);
});
