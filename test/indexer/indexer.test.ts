import test from 'ava';
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { encodeFunctionData, keccak256, parseEventLogs, parseUnits, stringToHex } from 'viem';
import { escrowAbi, mockUSDCAbi, orchestratorAbi } from '../../indexer/chain/index.js';
import { withDeadline } from '../../actors/grpc-call.js';
import { INDEXER_SERVICE_NAME } from '../../indexer/indexer-server.js';
import { Direction, type TransferHistoryResponse } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { healthOf } from '../support/grpc-health.js';
import { alice, bob, carol, createDeposit, mine, mint, readFacts, startTestChain, transfer, watch, witness, type TestChain } from '../support/chain.js';
import { fulfilOn, paymentEvidence, witnessAttestation } from '../support/local-attestation.js';
import { acceptCurrency, signalOn } from '../support/local-intent.js';

const USDC = 1_000_000n;

function history(chain: TestChain, wallet: string, limit = 0): Promise<TransferHistoryResponse> {
  return withDeadline((options, done) => chain.grpc.transferHistory({ wallet, limit }, new Metadata(), options, done));
}

test('the stream delivers each fact once, in order, decoded: escrow events always, transfers of watched addresses only', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  t.deepEqual(await watch(chain, [alice.address.toLowerCase() as `0x${string}`]), [alice.address], 'addresses come back checksummed');

  await mint(chain, alice.address, 500n * USDC);
  await mint(chain, carol.address, 10n * USDC);
  await transfer(chain, alice, bob.address, 20n * USDC);
  await transfer(chain, carol, bob.address, 1n * USDC);
  await createDeposit(chain, alice, 100n * USDC);

  // mint to alice, alice -> bob, then the deposit: DepositReceived, and the escrow pulling alice's funds. Carol's are not watched.
  const facts = await readFacts(chain, 0, 4);
  t.deepEqual(
    facts.map((fact) => fact.sequence),
    [1n, 2n, 3n, 4n],
  );
  t.is(new Set(facts.map((fact) => fact.id)).size, 4);
  t.deepEqual(
    facts.map((fact) => fact.event?.$case),
    ['usdcTransfer', 'usdcTransfer', 'depositReceived', 'usdcTransfer'],
  );
  const [minted, sent, deposit, funded] = facts;
  t.deepEqual(minted!.event?.value, { from: '0x0000000000000000000000000000000000000000', to: alice.address, value: (500n * USDC).toString() });
  t.deepEqual(sent!.event?.value, { from: alice.address, to: bob.address, value: (20n * USDC).toString() });
  t.is(funded!.event?.$case === 'usdcTransfer' && funded!.event.value.to, chain.local.escrow);
  t.deepEqual(deposit!.event?.value, {
    depositId: '1',
    depositor: alice.address,
    token: chain.local.usdc,
    amount: (100n * USDC).toString(),
    intentAmountMin: USDC.toString(),
    intentAmountMax: (100n * USDC).toString(),
    delegate: '0x0000000000000000000000000000000000000000',
    intentGuardian: '0x0000000000000000000000000000000000000000',
  });
  t.is(deposit!.contract, chain.local.escrow);
  t.is(deposit!.transactionHash, funded!.transactionHash, 'the escrow pulled the funds in the deposit transaction');
  t.true(
    facts.every(
      (fact, i) =>
        i === 0 || fact.blockNumber > facts[i - 1]!.blockNumber || (fact.blockNumber === facts[i - 1]!.blockNumber && fact.logIndex > facts[i - 1]!.logIndex),
    ),
  );
  t.true(facts.every((fact) => fact.blockTimestamp > 0n && !fact.retracted && fact.chainId === BigInt(chain.local.chainId)));

  const resumed = await readFacts(chain, 2, 2);
  t.deepEqual(
    resumed.map((fact) => fact.id),
    facts.slice(2).map((fact) => fact.id),
    'a subscriber resumes after its cursor',
  );
});

test('after a restart the indexer resumes from its saved cursor: nothing twice, nothing missed', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await watch(chain, [bob.address]);
  await mint(chain, bob.address, 5n * USDC);
  const before = await readFacts(chain, 0, 1);

  await chain.indexer.stop();
  await mint(chain, bob.address, 6n * USDC);
  await transfer(chain, bob, carol.address, 2n * USDC);
  await chain.restartIndexer();

  const after = await readFacts(chain, 1, 2);
  t.deepEqual(
    after.map((fact) => [fact.sequence, fact.event?.value]),
    [
      [2n, { from: '0x0000000000000000000000000000000000000000', to: bob.address, value: (6n * USDC).toString() }],
      [3n, { from: bob.address, to: carol.address, value: (2n * USDC).toString() }],
    ],
  );
  const all = await readFacts(chain, 0, 3);
  t.deepEqual(
    all.map((fact) => fact.id),
    [before[0]!.id, ...after.map((fact) => fact.id)],
  );
});

test('a re-organisation retracts the facts of the blocks that left the chain, and history forgets them', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await watch(chain, [alice.address]);
  await mint(chain, alice.address, 50n * USDC);
  await readFacts(chain, 0, 1);

  const snapshot = await chain.client.request({ method: 'evm_snapshot' as never });
  await transfer(chain, alice, bob.address, 7n * USDC);
  const [orphan] = await readFacts(chain, 1, 1);
  t.is((await history(chain, alice.address)).transfers.length, 2);

  await chain.client.request({ method: 'evm_revert' as never, params: [snapshot] as never });
  await transfer(chain, alice, carol.address, 3n * USDC);
  await mine(chain, 2);

  const [retraction, replacement] = await readFacts(chain, 2, 2);
  t.true(retraction!.retracted);
  t.is(retraction!.id, orphan!.id, 'the retraction names the fact it undoes');
  t.deepEqual(retraction!.event, orphan!.event);
  t.false(replacement!.retracted);
  t.deepEqual(replacement!.event?.value, { from: alice.address, to: carol.address, value: (3n * USDC).toString() });
  t.deepEqual(
    (await history(chain, alice.address)).transfers.map((transfer) => [transfer.to, transfer.value]),
    [
      [carol.address, (3n * USDC).toString()],
      [alice.address, (50n * USDC).toString()],
    ],
  );
});

test("a fork that returns to the very block it left brings that block's facts back, under ids consumers have not seen", async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const { local } = chain;
  await watch(chain, [alice.address]);
  await mint(chain, alice.address, 50n * USDC);
  await readFacts(chain, 0, 1);

  const snapshot = async () => (await chain.client.request({ method: 'evm_snapshot' as never })) as string;
  const revert = (id: string) => chain.client.request({ method: 'evm_revert' as never, params: [id] as never });
  // The same signed transaction, timestamp and base fee rebuild the same block, hash and all.
  const raw = await alice.signTransaction({
    chainId: local.chainId,
    nonce: await chain.client.getTransactionCount({ address: alice.address }),
    to: local.usdc,
    data: encodeFunctionData({ abi: mockUSDCAbi, functionName: 'transfer', args: [bob.address, 7n * USDC] }),
    gas: 100_000n,
    maxFeePerGas: 10n ** 10n,
    maxPriorityFeePerGas: 1n,
  });
  const timestamp = (await chain.client.getBlock()).timestamp + 60n;
  let beforeBlock = await snapshot();
  await local.testClient.setNextBlockTimestamp({ timestamp });
  const sent = await chain.client.request({ method: 'eth_sendRawTransaction', params: [raw] });
  // The block that holds the transfer, by its receipt: the latest block can already be another one on a busy machine.
  const { blockHash } = await chain.client.waitForTransactionReceipt({ hash: sent });
  const block = await chain.client.getBlock({ blockHash });
  const [original] = await readFacts(chain, 1, 1);
  t.is(original!.blockHash, block.hash);

  // Away: a longer branch without the block.
  await revert(beforeBlock);
  beforeBlock = await snapshot();
  await mine(chain, 2);
  const [retraction] = await readFacts(chain, 2, 1);
  t.true(retraction!.retracted);
  t.is(retraction!.id, original!.id);

  // And back: the same block again, on a branch longer still.
  await revert(beforeBlock);
  await local.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: block.baseFeePerGas! });
  await local.testClient.setNextBlockTimestamp({ timestamp });
  await chain.client.request({ method: 'eth_sendRawTransaction', params: [raw] });
  t.is((await chain.client.getBlock()).hash, block.hash, 'the test rebuilt the same block');
  await mine(chain, 3);
  const [reappeared] = await readFacts(chain, 3, 1);
  t.false(reappeared!.retracted);
  t.is(reappeared!.id, `${original!.id}#2`);
  t.is(reappeared!.blockHash, block.hash);
  t.deepEqual(reappeared!.event, original!.event);
  t.deepEqual(
    (await history(chain, alice.address)).transfers.map((transfer) => [transfer.to, transfer.value]),
    [
      [bob.address, (7n * USDC).toString()],
      [alice.address, (50n * USDC).toString()],
    ],
  );
});

test('history: only confirmed transfers of that wallet, both directions, newest first; an unwatched wallet is refused', async (t) => {
  const chain = await startTestChain({ confirmations: 2 });
  t.teardown(() => chain.stop());
  await watch(chain, [bob.address]);
  await mint(chain, alice.address, 100n * USDC);
  await transfer(chain, alice, bob.address, 30n * USDC);
  await transfer(chain, bob, carol.address, 4n * USDC);
  await transfer(chain, alice, carol.address, 9n * USDC);
  await mine(chain, 2);
  await readFacts(chain, 0, 2);

  // Not yet confirmed: one block on top of it, two needed.
  await transfer(chain, carol, bob.address, 1n * USDC);
  const confirmed = await history(chain, bob.address.toLowerCase());
  t.is(confirmed.wallet, bob.address);
  t.is(confirmed.tokenContract, chain.local.usdc);
  t.deepEqual(
    confirmed.transfers.map((transfer) => [transfer.from, transfer.to, transfer.value, transfer.direction]),
    [
      [bob.address, carol.address, (4n * USDC).toString(), Direction.DIRECTION_SEND],
      [alice.address, bob.address, (30n * USDC).toString(), Direction.DIRECTION_DEPOSIT],
    ],
  );
  t.true(confirmed.transfers[0]!.blockNumber > confirmed.transfers[1]!.blockNumber);

  await mine(chain, 2);
  await readFacts(chain, 2, 1);
  t.is((await history(chain, bob.address)).transfers.length, 3, 'confirmed now');
  t.is((await history(chain, bob.address, 1)).transfers.length, 1, 'limit');

  const unwatched = await t.throwsAsync<ServiceError>(history(chain, carol.address));
  t.is(unwatched?.code, GrpcStatus.FAILED_PRECONDITION);
  const bad = await t.throwsAsync<ServiceError>(history(chain, 'not-an-address'));
  t.is(bad?.code, GrpcStatus.INVALID_ARGUMENT);
  const tooMany = await t.throwsAsync<ServiceError>(history(chain, bob.address, 5000));
  t.is(tooMany?.code, GrpcStatus.INVALID_ARGUMENT);
});

test('watching an address from an earlier block reads its past transfers', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const from = await chain.client.getBlockNumber({ cacheTime: 0 });
  await mint(chain, carol.address, 8n * USDC);
  await transfer(chain, carol, bob.address, 2n * USDC);
  await mine(chain, 1);
  await watch(chain, [bob.address]);

  t.is((await t.throwsAsync<ServiceError>(history(chain, carol.address)))?.code, GrpcStatus.FAILED_PRECONDITION);
  t.deepEqual(await watch(chain, [carol.address], from), [carol.address]);
  t.deepEqual(await watch(chain, [carol.address], from), [], 'already watched');
  const past = await history(chain, carol.address);
  t.deepEqual(
    past.transfers.map((transfer) => transfer.value),
    [(2n * USDC).toString(), (8n * USDC).toString()],
  );
  const invalid = await t.throwsAsync<ServiceError>(watch(chain, ['0x1234' as `0x${string}`]));
  t.is(invalid?.code, GrpcStatus.INVALID_ARGUMENT);
});

test('the standard gRPC health service reports the indexer serving', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  t.is(await healthOf(chain.indexer.address, INDEXER_SERVICE_NAME), 'SERVING');
});

test('the deposit bundle’s events are facts: payment methods, currencies and rates, the rate manager, range and flags, and the fees an intent paid', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const { local } = chain;
  const VENMO = keccak256(stringToHex('venmo'));
  const USD = keccak256(stringToHex('USD'));
  const EUR = keccak256(stringToHex('EUR'));
  const PAYEE = keccak256(stringToHex('alice-venmo'));
  const rate = (value: string) => parseUnits(value, 18);
  const asMaker = async (functionName: string, args: readonly unknown[]) =>
    local.confirm(await local.walletFor(alice).writeContract({ address: local.escrow, abi: escrowAbi, functionName, args } as never));

  await mint(chain, alice.address, 100n * USDC);
  await createDeposit(chain, alice, 100n * USDC);
  await asMaker('setPaymentMethod', [1n, VENMO, PAYEE]);
  await acceptCurrency(local, alice, 1n, VENMO, USD, rate('1.01'));
  await acceptCurrency(local, alice, 1n, VENMO, USD, rate('1.02'));
  await acceptCurrency(local, alice, 1n, VENMO, EUR, rate('0.9'));
  await acceptCurrency(local, alice, 1n, VENMO, EUR, 0n);
  await asMaker('setRateManager', [1n, carol.address]);
  await asMaker('setRateBounds', [1n, VENMO, USD, { min: rate('1'), max: rate('1.1') }]);
  await asMaker('setIntentAmountRange', [1n, { min: 2n * USDC, max: 50n * USDC }]);
  await asMaker('setPrivate', [1n, true]);
  await asMaker('setDisputeProtectionEnabled', [1n, true]);
  await asMaker('setSellerAutomatedRelease', [1n, true]);
  await local.confirm(
    await local
      .walletFor(local.deployer)
      .writeContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'setProtocolFee', args: [100n, carol.address] }),
  );
  const signalled = await local.confirm(
    await signalOn(local, bob, {
      depositId: 1n,
      amount: 10n * USDC,
      to: bob.address,
      paymentMethod: VENMO,
      fiatCurrency: USD,
      conversionRate: rate('1.02'),
      referrer: carol.address,
      referrerFee: rate('0.01'),
    }),
  );
  const [intentSignaled] = parseEventLogs({ abi: orchestratorAbi, logs: signalled.logs, eventName: 'IntentSignaled' });
  const { intentHash, timestamp } = intentSignaled!.args;
  const evidence = paymentEvidence(
    { intentHash, timestamp, amount: 10n * USDC, paymentMethod: VENMO, fiatCurrency: USD, payeeDetails: PAYEE, conversionRate: rate('1.02') },
    'venmo-fees',
  );
  await local.confirm(await fulfilOn(local, carol, await witnessAttestation(local, [witness], intentHash, 10n * USDC, evidence)));

  const facts = await readFacts(chain, 0, 18);
  t.deepEqual(
    facts.map((fact) => fact.event?.$case),
    [
      'depositReceived',
      'depositPaymentMethodSet',
      'depositCurrencyAdded',
      'depositMinConversionRateUpdated',
      'depositCurrencyAdded',
      'depositCurrencyRemoved',
      'depositRateManagerSet',
      'depositRateBoundsSet',
      'depositIntentAmountRangeUpdated',
      'depositPrivacyUpdated',
      'depositDisputeProtectionUpdated',
      'depositSellerAutomatedReleaseUpdated',
      'fundsLocked',
      'intentSignaled',
      'fundsUnlockedAndTransferred',
      'protocolFeePaid',
      'referrerFeePaid',
      'intentFulfilled',
    ],
  );
  const value = (name: string) => facts.find((fact) => fact.event?.$case === name)!.event!.value;
  t.deepEqual(value('depositPaymentMethodSet'), { depositId: '1', paymentMethod: VENMO, payeeDetails: PAYEE });
  t.deepEqual(value('depositMinConversionRateUpdated'), { depositId: '1', paymentMethod: VENMO, currency: USD, minConversionRate: rate('1.02').toString() });
  t.deepEqual(value('depositCurrencyRemoved'), { depositId: '1', paymentMethod: VENMO, currency: EUR });
  t.deepEqual(value('depositRateManagerSet'), { depositId: '1', rateManager: carol.address });
  t.deepEqual(value('depositRateBoundsSet'), { depositId: '1', paymentMethod: VENMO, currency: USD, min: rate('1').toString(), max: rate('1.1').toString() });
  t.deepEqual(value('depositIntentAmountRangeUpdated'), { depositId: '1', intentAmountMin: (2n * USDC).toString(), intentAmountMax: (50n * USDC).toString() });
  t.deepEqual(value('depositPrivacyUpdated'), { depositId: '1', isPrivate: true });
  t.deepEqual(value('protocolFeePaid'), { intentHash, recipient: carol.address, amount: (USDC / 10n).toString() });
  t.deepEqual(value('referrerFeePaid'), { intentHash, referrer: carol.address, amount: (USDC / 10n).toString() });
  t.deepEqual(value('intentFulfilled'), { intentHash, fundsTransferredTo: bob.address, amount: ((98n * USDC) / 10n).toString(), isManualRelease: false });
});
