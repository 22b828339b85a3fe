/**
 * The intent ledger against a local chain and its indexer: intents signalled, fulfilled and
 * cancelled; a fulfilment priced once, however often its facts come again; re-organisations
 * that take a fulfilment or a whole intent away; a new fact log.
 */
import test from 'ava';
import { Metadata } from '@grpc/grpc-js';
import { setTimeout as delay } from 'node:timers/promises';
import { keccak256, parseEventLogs, parseUnits, toBytes, type Hex } from 'viem';
import { createLogger } from '../../../actors/index.js';
import { IntentLedger, type IntentRecordDoc } from '../../../actors/market/index.js';
import { RateSource, RateUnavailableError, type RateProvider } from '../../../actors/adapters/rates/rate-source.js';
import { currencyOfHash } from '../../../machines/market/market-names.js';
import { escrowAbi, orchestratorAbi } from '../../../indexer/chain/index.js';
import type { GetStatusResponse } from '../../../proto/gen/peer/indexer/v1/indexer.js';
import { alice, bob, carol, indexerCall, mine, mint, startTestChain, witness, type TestChain } from '../../support/chain.js';
import { depositOn } from '../../support/local-deposit.js';
import { fulfilOn, paymentEvidence, witnessAttestation } from '../../support/local-attestation.js';
import { acceptCurrency, signalOn } from '../../support/local-intent.js';
import { eventually } from '../../support/nats.js';
import { startTestSystem, type TestSystem } from '../../support/test-node.js';

const USDC = 1_000_000n;
const REVOLUT = keccak256(toBytes('revolut'));
const EUR = keccak256(toBytes('EUR'));
const PAYEE = keccak256(toBytes('makerben'));
const FLOOR = parseUnits('0.925', 18);
const logger = createLogger({ level: 'silent' });

/** A rate source whose EUR rate a test moves: what a fulfilment was priced at must not move with it. */
class MovingRates implements RateProvider {
  eur = 920_000n;
  async currencyPerUsd(currency: string): Promise<bigint | null> {
    return currency === 'EUR' ? this.eur : null;
  }
}

interface SetUp {
  chain: TestChain;
  node: TestSystem;
  rates: MovingRates;
  depositId: bigint;
  ledger(): IntentLedger;
}

/** A chain with alice's revolut EUR deposit of 1,000 USDC at 0.925, and a way to make ledgers over it. */
async function setUp(t: { teardown(fn: () => Promise<void>): void }): Promise<SetUp> {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const node = await startTestSystem({ kinds: [] });
  const rates = new MovingRates();
  await mint(chain, alice.address, 1_000n * USDC);
  const { depositId } = await depositOn(chain.local, alice, 1_000n * USDC, { range: { min: USDC, max: 1_000n * USDC } });
  await chain.local.confirm(
    await chain.local
      .walletFor(alice)
      .writeContract({ address: chain.local.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, REVOLUT, PAYEE] }),
  );
  await acceptCurrency(chain.local, alice, depositId, REVOLUT, EUR, FLOOR);
  const ledger = () => {
    // No liquidity book here: every maker is read with GetDeposit.
    const made = new IntentLedger({
      system: node.system,
      store: node.store,
      client: chain.grpc,
      logger,
      escrow: chain.local.escrow,
      deposits: { deposit: async () => null },
      rates: new RateSource(rates),
      currencyOf: currencyOfHash,
      minRetryMs: 10,
    });
    t.teardown(() => made.stop());
    return made;
  };
  return { chain, node, rates, depositId, ledger };
}

/** Waits until the indexer has read the chain's head, then until the ledger has taken every fact it logged. */
async function caughtUp(chain: TestChain, ledger: IntentLedger): Promise<void> {
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  for (let poll = 0; poll < 500; poll++) {
    const status = await indexerCall<GetStatusResponse>((options, done) => chain.grpc.getStatus({}, new Metadata(), options, done));
    if (status.cursorBlock >= head) return ledger.delivered(Number(status.lastSequence));
    await delay(20);
  }
  throw new Error(`the indexer did not reach block ${head}`);
}

async function signal(setup: SetUp, amount: bigint, rate = parseUnits('0.925', 18)): Promise<{ intentHash: Hex; timestamp: bigint }> {
  const { local } = setup.chain;
  const receipt = await local.confirm(
    await signalOn(local, bob, { depositId: setup.depositId, amount, to: carol.address, paymentMethod: REVOLUT, fiatCurrency: EUR, conversionRate: rate }),
  );
  const [signaled] = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' });
  return { intentHash: signaled!.args.intentHash, timestamp: signaled!.args.timestamp };
}

/** The witness attests `released` of the intent and carol relays it; resolves with the block time of the fulfilment. */
async function fulfil(
  setup: SetUp,
  intent: { intentHash: Hex; timestamp: bigint },
  amount: bigint,
  released: bigint,
  rate = parseUnits('0.925', 18),
): Promise<number> {
  const { local } = setup.chain;
  const evidence = paymentEvidence(
    { ...intent, amount, paymentMethod: REVOLUT, fiatCurrency: EUR, payeeDetails: PAYEE, conversionRate: rate },
    `payment-${intent.intentHash}`,
  );
  const receipt = await local.confirm(await fulfilOn(local, carol, await witnessAttestation(local, [witness], intent.intentHash, released, evidence)));
  return Number((await local.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp);
}

test('an intent is signalled, then fulfilled: its maker, terms, block times, fees and the profit at the reference of the moment', async (t) => {
  const setup = await setUp(t);
  const ledger = setup.ledger();
  await ledger.start();
  const intent = await signal(setup, 200n * USDC);
  await caughtUp(setup.chain, ledger);
  t.like(await ledger.intent(intent.intentHash), {
    _id: intent.intentHash.toLowerCase(),
    depositId: setup.depositId.toString(),
    maker: alice.address.toLowerCase(),
    paymentMethod: REVOLUT,
    fiatCurrency: EUR,
    amount: (200n * USDC).toString(),
    conversionRate: FLOOR.toString(),
    status: 'SIGNALED',
    signaledAt: Number(intent.timestamp),
    fulfilledAt: null,
    released: '0',
    referenceRate: null,
  });

  const fulfilledAt = await fulfil(setup, intent, 200n * USDC, 200n * USDC);
  await caughtUp(setup.chain, ledger);
  const record = (await ledger.intent(intent.intentHash))!;
  const protocolFee = BigInt(record.protocolFee);
  t.like(record, {
    status: 'FULFILLED',
    fulfilledAt,
    released: (200n * USDC).toString(),
    netToTaker: (200n * USDC - protocolFee).toString(),
    referenceRate: '920000',
    // 200 × (0.925 / 0.92 − 1) = 1.0869565… → 1.086956 USDC.
    realizedProfitUsd: '1086956',
  });
  t.is(await ledger.ofDeposit(setup.depositId.toString()).then((records) => records.length), 1);
});

test('a fulfilment is priced once: its facts delivered and read again leave the record as it was though the rate moved', async (t) => {
  const setup = await setUp(t);
  const first = setup.ledger();
  await first.start();
  const intent = await signal(setup, 100n * USDC);
  await fulfil(setup, intent, 100n * USDC, 100n * USDC);
  await caughtUp(setup.chain, first);
  const before = (await first.intent(intent.intentHash))!;
  t.is(before.realizedProfitUsd, '543478', '100 × 0.005 / 0.92 = 0.5434782… → 0.543478');
  await first.stop();

  setup.rates.eur = 900_000n;
  const cursors = await setup.node.store.collection<{ _id: string; afterSequence: number }>({ name: 'intent_ledger_cursor', indexes: [] });
  await cursors.updateOne({ _id: 'intent-ledger' }, { $set: { afterSequence: 0 } });
  // As though the record had been written before the fulfilment's facts: they are read again, the fulfilment is the same one.
  const records = await setup.node.store.collection<IntentRecordDoc>({ name: 'intent_ledger', indexes: [] });
  await records.updateOne({ _id: before._id }, { $set: { asOfSequence: 0 } });
  const second = setup.ledger();
  await second.start();
  await caughtUp(setup.chain, second);
  t.deepEqual(await second.intent(intent.intentHash), before, 'read again, priced as before: 0.92, not the 0.90 of now');
});

test('a cancelled intent is PRUNED with no fulfilment; a currency the rate source does not price has volume and no profit', async (t) => {
  const setup = await setUp(t);
  const ledger = setup.ledger();
  await ledger.start();
  const cancelled = await signal(setup, 30n * USDC);
  await setup.chain.local.confirm(
    await setup.chain.local
      .walletFor(bob)
      .writeContract({ address: setup.chain.local.orchestrator, abi: orchestratorAbi, functionName: 'cancelIntent', args: [cancelled.intentHash] }),
  );
  const unpriced = new IntentLedger({
    system: setup.node.system,
    store: setup.node.store,
    client: setup.chain.grpc,
    logger,
    escrow: setup.chain.local.escrow,
    deposits: { deposit: async () => null },
    rates: new RateSource({ currencyPerUsd: async () => null }),
    currencyOf: currencyOfHash,
  });
  t.teardown(() => unpriced.stop());
  await caughtUp(setup.chain, ledger);
  t.like(await ledger.intent(cancelled.intentHash), { status: 'PRUNED', fulfilledAt: null, released: '0', realizedProfitUsd: null });

  await ledger.stop();
  await unpriced.start();
  const sold = await signal(setup, 40n * USDC);
  await fulfil(setup, sold, 40n * USDC, 40n * USDC);
  await caughtUp(setup.chain, unpriced);
  t.like(await unpriced.intent(sold.intentHash), { status: 'FULFILLED', released: (40n * USDC).toString(), referenceRate: null, realizedProfitUsd: null });
});

test('a re-organisation that takes the fulfilment away leaves the intent SIGNALED; one that takes the intent away removes it', async (t) => {
  const setup = await setUp(t);
  const { chain } = setup;
  const ledger = setup.ledger();
  await ledger.start();
  const beforeIntent = (await chain.client.request({ method: 'evm_snapshot' as never })) as string;
  const intent = await signal(setup, 50n * USDC);
  const beforeFulfilment = (await chain.client.request({ method: 'evm_snapshot' as never })) as string;
  await fulfil(setup, intent, 50n * USDC, 50n * USDC);
  await caughtUp(chain, ledger);
  t.like(await ledger.intent(intent.intentHash), { status: 'FULFILLED' });

  await chain.client.request({ method: 'evm_revert' as never, params: [beforeFulfilment] as never });
  await mine(chain, 2);
  await caughtUp(chain, ledger);
  t.like(await ledger.intent(intent.intentHash), {
    status: 'SIGNALED',
    fulfilledAt: null,
    released: '0',
    fulfilmentFactId: null,
    referenceRate: null,
    realizedProfitUsd: null,
  });

  // Back before the signal: three blocks go (the signal's and the two mined), so the new fork must pass them to be read.
  await chain.client.request({ method: 'evm_revert' as never, params: [beforeIntent] as never });
  await mine(chain, 4);
  await caughtUp(chain, ledger);
  t.is(await ledger.intent(intent.intentHash), null);
});

test('an indexer serving another log makes the ledger start over from that log’s first fact', async (t) => {
  const setup = await setUp(t);
  const { chain } = setup;
  const ledger = setup.ledger();
  await ledger.start();
  const old = await signal(setup, 10n * USDC);
  await caughtUp(chain, ledger);

  // A rebuilt indexer whose log starts after that intent (and the deposit): it knows only what comes next.
  await chain.replaceLog(Number(await chain.client.getBlockNumber({ cacheTime: 0 })) + 1);
  await mint(chain, alice.address, 100n * USDC);
  const { depositId } = await depositOn(chain.local, alice, 100n * USDC, { range: { min: USDC, max: 100n * USDC } });
  await chain.local.confirm(
    await chain.local
      .walletFor(alice)
      .writeContract({ address: chain.local.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, REVOLUT, PAYEE] }),
  );
  await acceptCurrency(chain.local, alice, depositId, REVOLUT, EUR, FLOOR);
  const fresh = await signal({ ...setup, depositId }, 20n * USDC);
  await eventually(async () => (await ledger.intent(fresh.intentHash)) !== null, 'the new log’s intent in the ledger');
  await caughtUp(chain, ledger);

  t.is(await ledger.intent(old.intentHash), null, 'the intent the new log does not hold is gone');
  const records = await setup.node.store.collection<IntentRecordDoc>({ name: 'intent_ledger', indexes: [] });
  t.is(await records.count({}), 1);
});

test('while the rate source cannot answer, the fulfilment waits, and is priced at the first rate it gives', async (t) => {
  const setup = await setUp(t);
  let refusals = 0;
  const ledger = new IntentLedger({
    system: setup.node.system,
    store: setup.node.store,
    client: setup.chain.grpc,
    logger,
    escrow: setup.chain.local.escrow,
    deposits: { deposit: async () => null },
    rates: new RateSource({
      async currencyPerUsd() {
        if (refusals++ < 3) throw new RateUnavailableError('the provider is down');
        return 925_000n;
      },
    }),
    currencyOf: currencyOfHash,
    minRetryMs: 10,
  });
  t.teardown(() => ledger.stop());
  await ledger.start();
  const intent = await signal(setup, 100n * USDC);
  await fulfil(setup, intent, 100n * USDC, 100n * USDC);
  await caughtUp(setup.chain, ledger);
  t.is(refusals, 4, 'asked until it answered');
  // At 0.925 against 0.925, nothing.
  t.like(await ledger.intent(intent.intentHash), { status: 'FULFILLED', referenceRate: '925000', realizedProfitUsd: '0' });
});
