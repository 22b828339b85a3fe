/** The intent ledger's pure rules: realised profit and its rounding, the standing fulfilment among an intent's facts, and a record from GetIntent's answer. */
import test from 'ava';
import { keccak256, toBytes } from 'viem';
import { intentRecord, realizedProfitUsd, standingFulfilment } from '../../../actors/market/intent-records.js';
import { floorDiv } from '../../../machines/money.js';
import { IntentStatus, type ChainFact, type GetIntentResponse } from '../../../proto/gen/peer/indexer/v1/indexer.js';

const USDC = 1_000_000n;
const RATE = 10n ** 18n;
const HASH = keccak256(toBytes('an intent'));

test('realised profit is released × (rate / reference − 1) in USDC base units, rounded toward negative infinity', (t) => {
  // 100 USDC sold at 1.02 USD when a dollar is a dollar: 102 USD received for 100 given, 2 USDC.
  t.is(realizedProfitUsd(100n * USDC, (102n * RATE) / 100n, 1_000_000n), 2_000_000n);
  // 200 USDC at 0.925 EUR, reference 0.92 EUR: 185 EUR = 201.08695652… USD, so 1.08695652… USDC, rounded down to 1.086956.
  t.is(realizedProfitUsd(200n * USDC, (925n * RATE) / 1000n, 920_000n), 1_086_956n);
  // 50 USDC at 0.91 EUR: 45.5 EUR = 49.45652173… USD, a loss of 0.54347826… USDC, rounded down (away from zero) to −0.543479.
  t.is(realizedProfitUsd(50n * USDC, (91n * RATE) / 100n, 920_000n), -543_479n);
  t.is(realizedProfitUsd(100n * USDC, RATE, 1_000_000n), 0n, 'at the reference, nothing');
  t.is(realizedProfitUsd(0n, (102n * RATE) / 100n, 1_000_000n), 0n);
  t.throws(() => realizedProfitUsd(USDC, RATE, 0n), { instanceOf: RangeError });
});

test('floorDiv rounds toward negative infinity whatever the signs', (t) => {
  t.deepEqual([floorDiv(7n, 2n), floorDiv(-7n, 2n), floorDiv(7n, -2n), floorDiv(-7n, -2n), floorDiv(-6n, 2n), floorDiv(0n, 5n)], [3n, -4n, -4n, 3n, -3n, 0n]);
});

const fact = (sequence: number, id: string, event: ChainFact['event'], retracted = false, blockTimestamp = 1_000 + sequence): ChainFact => ({
  sequence: BigInt(sequence),
  id,
  chainId: 31337n,
  blockNumber: BigInt(sequence),
  blockHash: '0x',
  transactionHash: '0x',
  logIndex: 0,
  contract: '0x',
  blockTimestamp: BigInt(blockTimestamp),
  retracted,
  logEpoch: 'epoch',
  event,
});
const fulfilled = { $case: 'intentFulfilled' as const, value: { intentHash: HASH, fundsTransferredTo: '0x', amount: '1', isManualRelease: false } };
const pruned = { $case: 'intentPruned' as const, value: { intentHash: HASH } };

test('the standing fulfilment is the latest IntentFulfilled not taken back, with its block time', (t) => {
  t.is(standingFulfilment([]), null);
  t.deepEqual(standingFulfilment([fact(1, 'a', pruned), fact(2, 'f1', fulfilled)]), { factId: 'f1', sequence: 2, fulfilledAt: 1_002 });
  t.is(standingFulfilment([fact(2, 'f1', fulfilled), fact(3, 'f1', fulfilled, true)]), null, 'a retraction carries the id of the fact it takes back');
  t.deepEqual(
    standingFulfilment([fact(2, 'f1', fulfilled), fact(3, 'f1', fulfilled, true), fact(5, 'f2', fulfilled, false, 2_000)]),
    { factId: 'f2', sequence: 5, fulfilledAt: 2_000 },
    'fulfilled again on the new fork',
  );
  t.deepEqual(
    standingFulfilment([fact(2, 'f1', fulfilled), fact(3, 'f1', fulfilled, true), fact(4, 'f1', fulfilled)]),
    { factId: 'f1', sequence: 4, fulfilledAt: 1_004 },
    'the same block back again',
  );
});

function answer(status: IntentStatus, fees = { protocolFee: '0', referrerFee: '0' }): GetIntentResponse {
  return {
    intent: {
      intentHash: HASH.toUpperCase().replace('0X', '0x'),
      escrow: '0x',
      depositId: '4',
      paymentMethod: keccak256(toBytes('venmo')),
      owner: '0x',
      to: '0x',
      amount: (100n * USDC).toString(),
      fiatCurrency: keccak256(toBytes('USD')),
      conversionRate: ((102n * RATE) / 100n).toString(),
      timestamp: 1_700n,
    },
    status,
    fulfilled:
      status === IntentStatus.INTENT_STATUS_FULFILLED
        ? { intentHash: HASH, fundsTransferredTo: '0x', amount: (79n * USDC).toString(), isManualRelease: false }
        : undefined,
    ...fees,
    asOfSequence: 9n,
  };
}

test('a fulfilled record: released is the taker’s share and both fees, priced at the reference given', (t) => {
  const record = intentRecord({
    answer: answer(IntentStatus.INTENT_STATUS_FULFILLED, { protocolFee: (USDC / 2n).toString(), referrerFee: (USDC / 2n).toString() }),
    fulfilment: { factId: 'f1', sequence: 8, fulfilledAt: 1_800 },
    referenceRate: 1_000_000n,
    maker: '0xAbC0000000000000000000000000000000000001',
    asOfSequence: 9,
    updatedAt: 5,
  });
  t.like(record, {
    _id: HASH.toLowerCase(),
    maker: '0xabc0000000000000000000000000000000000001',
    status: 'FULFILLED',
    signaledAt: 1_700,
    fulfilledAt: 1_800,
    // 79 to the taker, 0.5 and 0.5 in fees: 80 USDC left the deposit.
    released: (80n * USDC).toString(),
    netToTaker: (79n * USDC).toString(),
    fulfilmentFactId: 'f1',
    referenceRate: '1000000',
    // 80 × (1.02 − 1) = 1.6 USDC.
    realizedProfitUsd: '1600000',
  });
  t.like(
    intentRecord({
      answer: answer(IntentStatus.INTENT_STATUS_FULFILLED),
      fulfilment: { factId: 'f1', sequence: 8, fulfilledAt: 1_800 },
      referenceRate: null,
      maker: '0x1',
      asOfSequence: 9,
      updatedAt: 5,
    }),
    {
      referenceRate: null,
      realizedProfitUsd: null,
      released: (79n * USDC).toString(),
    },
    'a currency without a reference has volume and no profit',
  );
});

test('an open or pruned record has no fulfilment; a fulfilment time goes with a FULFILLED answer only', (t) => {
  for (const status of [IntentStatus.INTENT_STATUS_SIGNALED, IntentStatus.INTENT_STATUS_PRUNED]) {
    t.like(intentRecord({ answer: answer(status), fulfilment: null, referenceRate: 1_000_000n, maker: '0x1', asOfSequence: 9, updatedAt: 5 }), {
      fulfilledAt: null,
      released: '0',
      referenceRate: null,
      realizedProfitUsd: null,
      fulfilmentFactId: null,
    });
  }
  t.throws(() =>
    intentRecord({ answer: answer(IntentStatus.INTENT_STATUS_FULFILLED), fulfilment: null, referenceRate: null, maker: '0x1', asOfSequence: 9, updatedAt: 5 }),
  );
  t.throws(() =>
    intentRecord({
      answer: answer(IntentStatus.INTENT_STATUS_SIGNALED),
      fulfilment: { factId: 'f', sequence: 1, fulfilledAt: 1 },
      referenceRate: null,
      maker: '0x1',
      asOfSequence: 9,
      updatedAt: 5,
    }),
  );
});
