/**
 * A relayer wallet whose nonces ran ahead of the chain (nonces given out that never reached
 * it) signs transactions that wait forever. At start the node sets the wallet against the
 * chain: nonces nobody holds are given out again, and a gap under a held nonce is filled
 * with a transfer of nothing, so the held transaction mines.
 */
import test, { type ExecutionContext } from 'ava';
import { createLogger } from '../../../actors/index.js';
import { ViemRelayerChain } from '../../../actors/adapters/chain/viem-relayer-chain.js';
import { reconcileNonces } from '../../../actors/relayer/index.js';
import { LOCAL_RELAYER_INDEX, anvilTestAccount, protocolErrorsAbi } from '../../../indexer/chain/index.js';
import { walletId } from '../../../machines/index.js';
import { advance } from '../../support/checkout.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';

const RELAYER = anvilTestAccount(LOCAL_RELAYER_INDEX);
const CHECK_MS = 200;

async function relayerNode(t: ExecutionContext) {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, RELAYER_CHECK_MS: CHECK_MS });
  t.teardown(() => gateway.stop());
  const local = gateway.node.chain!.localChain!;
  const chain = new ViemRelayerChain(local.chainId, { client: local.publicClient, accounts: [RELAYER], errorAbi: protocolErrorsAbi });
  const reconcile = (liveNodes = 1) =>
    reconcileNonces(gateway.node.system, chain, {
      maxFeePerGas: 200_000_000_000n,
      now: () => gateway.clock.now(),
      logger: createLogger({ level: 'silent' }),
      liveNodes,
    });
  return { gateway, local, reconcile, wallet: { kind: 'wallet', id: walletId(local.chainId, RELAYER.address) } };
}

/** A transfer of 1 wei to dev account 9, sent through the relayer; its status once the effects are idle. */
async function send(gateway: TestGateway, id: string): Promise<string> {
  await gateway.node.relayer!.send(id, { to: anvilTestAccount(9).address, data: '0x', value: 1n, purpose: 'probe', owner: null });
  await gateway.node.system.effectsIdle();
  return (await gateway.node.relayer!.read(id))!.status;
}

/** Nonces the wallet gives out that never reach the chain: what a chain that lost its last blocks leaves. */
async function loseNonces(gateway: TestGateway, wallet: { kind: string; id: string }, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    await gateway.node.system.askAt(wallet, { type: 'ASSIGN_NONCE', transactionId: `tx_lost_${index}`, chainNonce: 0n, at: gateway.clock.now() });
  }
}

test('nonces given out that the chain never took and nobody holds are given out again', async (t) => {
  const { gateway, local, reconcile, wallet } = await relayerNode(t);
  t.is(await send(gateway, 'tx_first'), 'MINED');
  const chainNonce = BigInt(await local.publicClient.getTransactionCount({ address: RELAYER.address, blockTag: 'pending' }));
  await loseNonces(gateway, wallet, 2);

  const [result] = await reconcile();
  t.is(result!.chainNonce, chainNonce);
  t.is(result!.before, chainNonce + 2n);
  t.is(result!.after, chainNonce);
  t.deepEqual(result!.filled, []);
  t.is(await send(gateway, 'tx_after'), 'MINED');
  t.is((await gateway.node.relayer!.read('tx_after'))!.nonce, chainNonce.toString());
});

test('a transaction waiting behind nonces nobody holds mines once the gap is filled', async (t) => {
  const { gateway, local, reconcile, wallet } = await relayerNode(t);
  t.is(await send(gateway, 'tx_first'), 'MINED');
  const chainNonce = BigInt(await local.publicClient.getTransactionCount({ address: RELAYER.address, blockTag: 'pending' }));
  await loseNonces(gateway, wallet, 2);

  // Signed above the gap: the chain keeps it queued, and looking again changes nothing.
  t.is(await send(gateway, 'tx_stuck'), 'SUBMITTED');
  t.is((await gateway.node.relayer!.read('tx_stuck'))!.nonce, (chainNonce + 2n).toString());
  await advance(gateway, CHECK_MS);
  t.is((await gateway.node.relayer!.read('tx_stuck'))!.status, 'SUBMITTED');

  const [result] = await reconcile();
  t.deepEqual(result!.filled, [chainNonce, chainNonce + 1n]);
  t.is(result!.after, chainNonce + 3n, 'the held nonce stays its transaction’s');
  await advance(gateway, CHECK_MS);
  t.is((await gateway.node.relayer!.read('tx_stuck'))!.status, 'MINED');
  t.is(BigInt(await local.publicClient.getTransactionCount({ address: RELAYER.address, blockTag: 'latest' })), chainNonce + 3n);
  t.is(await send(gateway, 'tx_next'), 'MINED');
});

test('a node starting while other nodes of its cluster are live leaves the nonces alone: one just given out on another node is neither given again nor spent', async (t) => {
  const { gateway, local, reconcile, wallet } = await relayerNode(t);
  t.is(await send(gateway, 'tx_first'), 'MINED');
  const chainNonce = BigInt(await local.publicClient.getTransactionCount({ address: RELAYER.address, blockTag: 'pending' }));
  // Given out by the wallet to transactions another node is preparing now: not yet held, not yet sent.
  await loseNonces(gateway, wallet, 2);
  t.is(await send(gateway, 'tx_other_node'), 'SUBMITTED');

  t.deepEqual(await reconcile(3), [], 'nothing set against the chain');
  t.is(
    BigInt(await local.publicClient.getTransactionCount({ address: RELAYER.address, blockTag: 'pending' })),
    chainNonce,
    'no transfer of nothing spent a nonce',
  );
  t.is(await send(gateway, 'tx_next'), 'SUBMITTED');
  t.is((await gateway.node.relayer!.read('tx_next'))!.nonce, (chainNonce + 3n).toString(), 'and the wallet gives out no nonce a second time');
});
