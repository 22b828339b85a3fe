/**
 * Lookups in the fact log over gRPC, against a real anvil: a deposit and its intents as
 * their standing facts tell them, checked against the escrow's own state, and the facts
 * about one subject a page at a time.
 */
import test from 'ava';
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { keccak256, parseEventLogs, parseUnits, stringToHex, type Hash } from 'viem';
import { openIndexerCollections } from '../../deploy/chain.js';
import { escrowAbi, orchestratorAbi } from '../../indexer/chain/index.js';
import {
  IntentStatus,
  type GetDepositResponse,
  type GetIntentResponse,
  type GetStatusResponse,
  type ListFactsRequest,
  type ListFactsResponse,
} from '../../proto/gen/peer/indexer/v1/indexer.js';
import { alice, bob, carol, createDeposit, indexerCall, mine, mint, readFacts, startTestChain, witness, type TestChain } from '../support/chain.js';
import { fulfilOn, paymentEvidence, witnessAttestation } from '../support/local-attestation.js';
import { acceptCurrency, signalOn } from '../support/local-intent.js';

const USDC = 1_000_000n;
const VENMO = keccak256(stringToHex('venmo'));
const USD = keccak256(stringToHex('USD'));
const PAYEE = keccak256(stringToHex('alice-venmo'));
const RATE = parseUnits('1.02', 18);

const getDeposit = (chain: TestChain, depositId: string, escrow = chain.local.escrow) =>
  indexerCall<GetDepositResponse>((options, done) => chain.grpc.getDeposit({ escrow, depositId }, new Metadata(), options, done));
const getIntent = (chain: TestChain, intentHash: string) =>
  indexerCall<GetIntentResponse>((options, done) => chain.grpc.getIntent({ intentHash }, new Metadata(), options, done));
const listFacts = (chain: TestChain, request: Partial<ListFactsRequest>) =>
  indexerCall<ListFactsResponse>((options, done) =>
    chain.grpc.listFacts({ subject: undefined, afterSequence: 0n, limit: 0, ...request }, new Metadata(), options, done),
  );

async function refusal(promise: Promise<unknown>): Promise<{ code: number; details: string }> {
  const error = (await promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: ServiceError) => error,
  )) as ServiceError;
  return { code: error.code, details: error.details };
}

async function signal(chain: TestChain, amount: bigint, referred = false): Promise<{ intentHash: Hash; timestamp: bigint }> {
  const receipt = await chain.local.confirm(
    await signalOn(chain.local, bob, {
      depositId: 1n,
      amount,
      to: carol.address,
      paymentMethod: VENMO,
      fiatCurrency: USD,
      conversionRate: RATE,
      ...(referred ? { referrer: alice.address, referrerFee: parseUnits('0.01', 18) } : {}),
    }),
  );
  const [signaled] = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' });
  return { intentHash: signaled!.args.intentHash, timestamp: signaled!.args.timestamp };
}

test('a deposit and its intents as their facts tell them: the escrow’s own amounts, settings, statuses and fees', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const { local } = chain;
  const asMaker = async (functionName: string, args: readonly unknown[]) =>
    local.confirm(await local.walletFor(alice).writeContract({ address: local.escrow, abi: escrowAbi, functionName, args } as never));
  await mint(chain, alice.address, 200n * USDC);
  await createDeposit(chain, alice, 100n * USDC);
  await asMaker('setPaymentMethod', [1n, VENMO, PAYEE]);
  await acceptCurrency(local, alice, 1n, VENMO, USD, parseUnits('1.01', 18));
  await acceptCurrency(local, alice, 1n, VENMO, USD, RATE);
  await asMaker('setPrivate', [1n, true]);
  await asMaker('setRateManager', [1n, bob.address]);
  await asMaker('setRateBounds', [1n, VENMO, USD, { min: parseUnits('1', 18), max: parseUnits('1.1', 18) }]);
  await local.confirm(
    await local
      .walletFor(local.deployer)
      .writeContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'setProtocolFee', args: [100n, carol.address] }),
  );

  const fulfilled = await signal(chain, 20n * USDC, true);
  const pruned = await signal(chain, 10n * USDC);
  const open = await signal(chain, 5n * USDC);
  const evidence = paymentEvidence(
    { ...fulfilled, amount: 20n * USDC, paymentMethod: VENMO, fiatCurrency: USD, payeeDetails: PAYEE, conversionRate: RATE },
    'venmo-lookups',
  );
  await local.confirm(await fulfilOn(local, carol, await witnessAttestation(local, [witness], fulfilled.intentHash, 15n * USDC, evidence)));
  await local.confirm(
    await local.walletFor(bob).writeContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'cancelIntent', args: [pruned.intentHash] }),
  );
  await asMaker('withdrawDeposit', [1n]);
  const facts = await readFacts(chain, 0, 20);

  const deposit = await getDeposit(chain, '1');
  const onChain = await local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [1n] });
  t.deepEqual([BigInt(deposit.available), BigInt(deposit.locked)], [onChain.available, onChain.locked], 'the escrow’s own arithmetic, replayed from facts');
  t.is(deposit.locked, (5n * USDC).toString(), 'the open intent is still locked after the withdrawal');
  t.false(deposit.closed);
  t.like(deposit, {
    isPrivate: true,
    rateManager: bob.address,
    intentAmountMin: USDC.toString(),
    intentAmountMax: (100n * USDC).toString(),
    asOfSequence: facts.at(-1)!.sequence,
  });
  t.deepEqual(deposit.paymentMethods, [{ depositId: '1', paymentMethod: VENMO, payeeDetails: PAYEE }]);
  t.deepEqual(deposit.currencies, [{ depositId: '1', paymentMethod: VENMO, currency: USD, minConversionRate: RATE.toString() }]);
  // Three intents locked funds; one was fulfilled for 15 USDC, which left the deposit whole (the fees are paid out of it after).
  t.like(deposit, { intentsSignaled: 3, intentsFulfilled: 1, totalDeposited: (100n * USDC).toString(), totalTaken: (15n * USDC).toString() });
  t.is(deposit.createdAt, facts[0]!.blockTimestamp, 'created in the block of DepositReceived');
  t.is(deposit.updatedAt, facts.at(-1)!.blockTimestamp, 'updated in the block of the last standing fact');
  t.deepEqual(deposit.rateBounds, [
    { depositId: '1', paymentMethod: VENMO, currency: USD, min: parseUnits('1', 18).toString(), max: parseUnits('1.1', 18).toString() },
  ]);

  const done = await getIntent(chain, fulfilled.intentHash);
  t.is(done.status, IntentStatus.INTENT_STATUS_FULFILLED);
  t.like(done.intent, { owner: bob.address, to: carol.address, amount: (20n * USDC).toString(), depositId: '1' });
  t.deepEqual([done.protocolFee, done.referrerFee], [((15n * USDC) / 100n).toString(), ((15n * USDC) / 100n).toString()]);
  t.is(done.fulfilled!.amount, (15n * USDC - (30n * USDC) / 100n).toString());
  t.is((await getIntent(chain, pruned.intentHash)).status, IntentStatus.INTENT_STATUS_PRUNED);
  t.like(await getIntent(chain, open.intentHash), { status: IntentStatus.INTENT_STATUS_SIGNALED, protocolFee: '0', fulfilled: undefined });

  t.like(await refusal(getIntent(chain, keccak256('0x01'))), { code: GrpcStatus.NOT_FOUND });
  t.like(await refusal(getIntent(chain, '0x1234')), { code: GrpcStatus.INVALID_ARGUMENT });
  t.like(await refusal(getDeposit(chain, '2')), { code: GrpcStatus.NOT_FOUND });
  t.like(await refusal(getDeposit(chain, '1', bob.address)), {
    code: GrpcStatus.NOT_FOUND,
    details: `this indexer reads the escrow ${local.escrow}, not ${bob.address}`,
  });
  t.like(await refusal(getDeposit(chain, 'one')), { code: GrpcStatus.INVALID_ARGUMENT });
});

test('the facts about one subject come a page at a time from a sequence, with the log’s epoch', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await mint(chain, alice.address, 101n * USDC);
  await createDeposit(chain, alice, 100n * USDC);
  await createDeposit(chain, alice, USDC);
  const { local } = chain;
  for (const currency of ['USD', 'EUR', 'GBP']) {
    await local.confirm(
      await local
        .walletFor(alice)
        .writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [1n, keccak256(stringToHex(currency)), PAYEE] }),
    );
  }
  await readFacts(chain, 0, 5);
  const { logEpoch: epoch } = await indexerCall<GetStatusResponse>((options, done) => chain.grpc.getStatus({}, new Metadata(), options, done));

  const first = await listFacts(chain, { subject: { $case: 'depositId', value: '1' }, limit: 2 });
  t.true(first.hasMore);
  t.deepEqual(
    first.facts.map((fact) => fact.event?.$case),
    ['depositReceived', 'depositPaymentMethodSet'],
  );
  t.true(first.facts.every((fact) => fact.logEpoch === epoch));
  const rest = await listFacts(chain, { subject: { $case: 'depositId', value: '1' }, afterSequence: first.facts.at(-1)!.sequence });
  t.false(rest.hasMore);
  t.deepEqual(
    rest.facts.map((fact) => fact.event?.$case),
    ['depositPaymentMethodSet', 'depositPaymentMethodSet'],
  );
  t.deepEqual(
    (await listFacts(chain, { subject: { $case: 'depositId', value: '2' } })).facts.map((fact) => fact.event?.$case),
    ['depositReceived'],
  );

  t.like(await refusal(listFacts(chain, {})), { code: GrpcStatus.INVALID_ARGUMENT, details: 'name a subject: deposit_id, intent_hash or address' });
  t.like(await refusal(listFacts(chain, { subject: { $case: 'depositId', value: '1' }, limit: 1001 })), { code: GrpcStatus.INVALID_ARGUMENT });
});

test('an intent whose block left the chain is not found: lookups count standing facts only', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const { local } = chain;
  await mint(chain, alice.address, 100n * USDC);
  await createDeposit(chain, alice, 100n * USDC);
  await local.confirm(
    await local.walletFor(alice).writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [1n, VENMO, PAYEE] }),
  );
  await acceptCurrency(local, alice, 1n, VENMO, USD, RATE);
  await readFacts(chain, 0, 3);

  const beforeFork = (await chain.client.request({ method: 'evm_snapshot' as never })) as string;
  const { intentHash } = await signal(chain, 10n * USDC);
  await readFacts(chain, 3, 2);
  t.is((await getIntent(chain, intentHash)).status, IntentStatus.INTENT_STATUS_SIGNALED);
  t.is((await getDeposit(chain, '1')).locked, (10n * USDC).toString());

  await chain.client.request({ method: 'evm_revert' as never, params: [beforeFork] as never });
  await mine(chain, 2);
  await readFacts(chain, 5, 2);
  t.like(await refusal(getIntent(chain, intentHash)), { code: GrpcStatus.NOT_FOUND });
  t.is((await getDeposit(chain, '1')).locked, '0');
});

test('facts written before they were filed under subjects are filed at the next start', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  await mint(chain, alice.address, 10n * USDC);
  await createDeposit(chain, alice, 10n * USDC);
  await readFacts(chain, 0, 1);
  await chain.indexer.stop();
  const { facts } = await openIndexerCollections(chain.store, chain.local.chainId);
  for (const doc of await facts.find({})) {
    const { subjects: _filed, ...before } = doc;
    await facts.replaceOne({ _id: doc._id }, before);
  }
  t.is((await facts.find({ subjects: { $exists: true } })).length, 0);

  await chain.restartIndexer();
  const listed = await listFacts(chain, { subject: { $case: 'depositId', value: '1' } });
  t.deepEqual(
    listed.facts.map((fact) => fact.event?.$case),
    ['depositReceived'],
  );
});
