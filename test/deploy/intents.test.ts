/**
 * The node's intent calls on a local chain: two customers paying the same price to the
 * same payout address, signalled in one block, are two intents. The gating approval is the
 * only thing that could tell them apart, and the orchestrator takes each approval once.
 * And what the node reads of a signalled intent: its hash, signal time and expiry.
 */
import test from 'ava';
import { parseEventLogs, type Hex } from 'viem';
import {
  anvilTestAccount,
  DEFAULT_INTENT_EXPIRATION_SECONDS,
  LOCAL_GATING_SERVICE_INDEX,
  orchestratorAbi,
  startLocalChain,
} from '../../indexer/chain/index.js';
import { ViemIntents } from '../../actors/adapters/chain/viem-intents.js';
import { RATE, venmoDeposit } from '../support/payment-flow.js';

/** A Venmo deposit on `local`, and what signals an intent of 10 USDC against it from dev account 7. */
async function signalling(local: Awaited<ReturnType<typeof startLocalChain>>) {
  const depositId = await venmoDeposit(local);
  const owner = anvilTestAccount(7);
  const intents = new ViemIntents({
    client: local.publicClient as never,
    wallets: [owner.address],
    gatingSigner: anvilTestAccount(LOCAL_GATING_SERVICE_INDEX),
    feeRecipient: null,
  });
  const chain = { chainId: local.chainId, escrow: local.escrow, orchestrator: local.orchestrator };
  const terms = {
    depositId,
    amount: 10_000_000n,
    to: '0x1111111111111111111111111111111111111111' as Hex,
    paymentMethod: 'venmo',
    fiatCurrency: 'USD',
    conversionRate: RATE,
    platformFeeBps: 0,
  };
  return { owner, intents, chain, terms };
}

test('two intents on identical terms signalled in the same block both land', async (t) => {
  const local = await startLocalChain();
  t.teardown(() => local.stop());
  const { owner, intents, chain, terms } = await signalling(local);

  await local.testClient.setAutomine(false);
  const wallet = local.walletFor(owner);
  const hashes: Hex[] = [];
  for (let i = 0; i < 2; i++) hashes.push(await wallet.sendTransaction(await intents.signalCall(chain, owner.address, terms)));
  await local.testClient.mine({ blocks: 1 });
  await local.testClient.setAutomine(true);

  const receipts = await Promise.all(hashes.map((hash) => local.publicClient.waitForTransactionReceipt({ hash })));
  t.is(receipts[0]!.blockNumber, receipts[1]!.blockNumber);
  t.deepEqual(
    receipts.map((receipt) => receipt.status),
    ['success', 'success'],
  );
  const signalled = receipts.flatMap((receipt) => parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' }));
  t.is(new Set(signalled.map((log) => log.args.intentHash)).size, 2);
});

test('the intent a mined signal created is read from its receipt with its expiry, which the orchestrator keeps too', async (t) => {
  const local = await startLocalChain();
  t.teardown(() => local.stop());
  const { owner, intents, chain, terms } = await signalling(local);

  const hash = await local.walletFor(owner).sendTransaction(await intents.signalCall(chain, owner.address, terms));
  const receipt = await local.confirm(hash);
  const block = await local.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  const signalled = await intents.signalledIntent(hash);
  t.deepEqual(signalled, {
    intentHash: signalled.intentHash,
    signalTimestamp: Number(block.timestamp),
    expiryTime: Number(block.timestamp + DEFAULT_INTENT_EXPIRATION_SECONDS),
  });
  t.is(await intents.intentExpiry(chain, signalled.intentHash), signalled.expiryTime);
});
