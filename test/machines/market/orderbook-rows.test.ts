/** The orderbook's figures from hand-computed deposits: each rule of docs/orderbook.md has a case that fails without it. */
import test from 'ava';
import { keccak256, toBytes, zeroAddress } from 'viem';
import type { LiquidityDepositDoc } from '../../../actors/market/deposit-offers.js';
import { aprBpsOf, orderbookRows, rateText, spreadBpsOf, type RowContext } from '../../../machines/market/orderbook-rows.js';

const USDC = 1_000_000n;
const RATE = 10n ** 18n;
const hash = (text: string) => keccak256(toBytes(text)).toLowerCase();
const NOW = 1_800_000_000;
const DAY = 86_400;
const ESCROW = '0x00000000000000000000000000000000000000e5';

function deposit(overrides: Partial<LiquidityDepositDoc> = {}): LiquidityDepositDoc {
  return {
    _id: '7',
    depositor: zeroAddress,
    token: zeroAddress,
    available: (1_000n * USDC).toString(),
    locked: '0',
    intentMin: (5n * USDC).toString(),
    intentMax: (2_000n * USDC).toString(),
    closed: false,
    isPrivate: false,
    sellerAutomatedRelease: false,
    disputeProtection: false,
    methods: [
      {
        paymentMethod: hash('revolut'),
        payeeDetails: hash('payee'),
        currencies: [{ currency: hash('EUR'), minConversionRate: ((RATE * 925n) / 1000n).toString() }],
      },
    ],
    rateManager: null,
    intentsSignaled: 3,
    intentsFulfilled: 2,
    totalDeposited: (2_000n * USDC).toString(),
    totalTaken: (500n * USDC).toString(),
    createdAt: NOW - 73 * DAY,
    chainUpdatedAt: NOW - 60,
    offers: [],
    asOfSequence: 1,
    updatedAt: 0,
    ...overrides,
  };
}

const context: RowContext = {
  chainId: 8453,
  token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  escrow: ESCROW,
  feeBps: 150,
  referenceRates: new Map([['EUR', 920_000n]]),
  credentials: new Map(),
  makers: new Map(),
  now: NOW,
};

test('a row carries document 3’s fields, worked by hand', (t) => {
  const [ranked, ...rest] = orderbookRows([deposit()], context);
  t.is(rest.length, 0);
  t.like(ranked!.row, {
    depositId: `8453_${ESCROW}_7`,
    depositIdOnContract: '7',
    paymentPlatform: 'revolut',
    currency: 'EUR',
    price: '0.925',
    conversionRate: '925000000000000000',
    takerConversionRate: '925000000000000000',
    availableTokenAmount: '1000000000',
    // 1,000 USDC less 1.5 %.
    netTokenAmount: '985000000',
    // 1,000 × 0.925.
    availableFiatAmount: '925.00',
    // 5 × 0.925 = 4.625, rounded up: the smallest intent costs at least that.
    minFiatSupported: '4.63',
    // An intent takes at most what is available (1,000), not the 2,000 the range allows.
    maxFiatSupported: '925.00',
    // 2 of 3 intents fulfilled.
    successRateBps: 6666,
    feeBps: 150,
    // (0.925 / 0.92 − 1) = 0.5434… % → 54 bps.
    spread: 0.54,
    // 54 bps × 500 / 2,000 × 365 / 73 = 67.5 bps.
    apr: 0.67,
    isPrivate: false,
    rateManagerId: null,
    updatedAt: new Date((NOW - 60) * 1000).toISOString(),
  });
  t.deepEqual(ranked!.row.supportedMethodHashes, [hash('revolut')]);
  t.is(ranked!.keys.takeable, 1_000n * USDC);
});

test('the spread is toward zero in basis points, either side of the reference', (t) => {
  t.is(spreadBpsOf(RATE, 1_000_000n), 0n);
  t.is(spreadBpsOf((RATE * 102n) / 100n, 1_000_000n), 200n);
  t.is(spreadBpsOf((RATE * 97n) / 100n, 1_000_000n), -300n);
  t.is(spreadBpsOf((RATE * 9_999n) / 10_000n, 1_000_000n), -1n);
});

test('no reference rate, no spread and no APR; under a day old, no APR; nothing taken, an APR of zero', (t) => {
  const [unpriced] = orderbookRows([deposit()], { ...context, referenceRates: new Map() });
  t.like(unpriced!.row, { spread: null, apr: null });
  t.is(aprBpsOf(54n, deposit({ createdAt: NOW - DAY + 1 }), NOW), null);
  t.is(aprBpsOf(54n, deposit({ totalTaken: '0' }), NOW), 0n);
  t.is(aprBpsOf(-200n, deposit({ createdAt: NOW - 365 * DAY, totalTaken: '2000000000' }), NOW), -200n);
});

test('before its first intent a deposit’s success rate is 0', (t) => {
  const [ranked] = orderbookRows([deposit({ intentsSignaled: 0, intentsFulfilled: 0 })], context);
  t.is(ranked!.row.successRateBps, 0);
});

test('one row per platform and currency priced; closed deposits, unknown platforms and currencies are left out', (t) => {
  const methods = [
    { paymentMethod: hash('venmo'), payeeDetails: hash('a'), currencies: [{ currency: hash('USD'), minConversionRate: RATE.toString() }] },
    {
      paymentMethod: hash('wise'),
      payeeDetails: hash('b'),
      currencies: [
        { currency: hash('GBP'), minConversionRate: RATE.toString() },
        { currency: hash('XQZ'), minConversionRate: RATE.toString() },
      ],
    },
    { paymentMethod: hash('not-a-platform'), payeeDetails: hash('c'), currencies: [{ currency: hash('USD'), minConversionRate: RATE.toString() }] },
  ];
  const rows = orderbookRows([deposit({ methods }), deposit({ _id: '8', closed: true })], context);
  t.deepEqual(
    rows.map(({ row }) => `${row.paymentPlatform}:${row.currency}`),
    ['venmo:USD', 'wise:GBP'],
  );
  t.deepEqual(
    rows[0]!.row.supportedMethodHashes,
    methods.map((method) => method.paymentMethod),
  );
});

test('automated release is enabled with the deposit’s flag and an active credential, and available while the credential is unexpired', (t) => {
  const key = `revolut:${hash('payee')}`;
  const flagged = deposit({ sellerAutomatedRelease: true });
  const rowWith = (credentials: RowContext['credentials'], doc = flagged) => orderbookRows([doc], { ...context, credentials })[0]!.row;
  t.like(rowWith(new Map([[key, { active: true, expiresAt: NOW + 1 }]])), { sellerAutomatedReleaseEnabled: true, sellerAutomatedReleaseAvailable: true });
  t.like(rowWith(new Map([[key, { active: true, expiresAt: NOW }]])), { sellerAutomatedReleaseEnabled: true, sellerAutomatedReleaseAvailable: false });
  t.like(rowWith(new Map([[key, { active: false, expiresAt: NOW + 1 }]])), { sellerAutomatedReleaseEnabled: false, sellerAutomatedReleaseAvailable: false });
  t.like(rowWith(new Map()), { sellerAutomatedReleaseEnabled: false, sellerAutomatedReleaseAvailable: false });
  t.like(
    rowWith(new Map([[key, { active: true, expiresAt: NOW + 1 }]]), deposit()),
    { sellerAutomatedReleaseEnabled: false, sellerAutomatedReleaseAvailable: false },
    'not opted in on chain',
  );
});

test('a rate reads as its shortest decimal with at least two places', (t) => {
  t.is(rateText(RATE), '1.00');
  t.is(rateText(10n * RATE), '10.00');
  t.is(rateText((RATE * 1_005n) / 1_000n), '1.005');
  t.is(rateText(870n * RATE + 1n), '870.000000000000000001');
});

test('a row carries its payee’s maker record; a Zelle bank’s row falls back to the record made for Zelle', (t) => {
  const record = (processorName: string, id: number) => ({
    id,
    processorName,
    offchainId: 'x',
    telegramUsername: null,
    hashedOnchainId: hash('payee'),
    isBusiness: false,
    revoked: false,
    metadata: null,
    createdAt: '2026-11-24T00:00:00.000Z',
  });
  const chase = hash('zelle-chase');
  const zelleDeposit = deposit({
    methods: [{ paymentMethod: chase, payeeDetails: hash('payee'), currencies: [{ currency: hash('USD'), minConversionRate: RATE.toString() }] }],
  });
  const rowWith = (makers: RowContext['makers'], doc = deposit()) => orderbookRows([doc], { ...context, makers })[0]!.row;
  t.is(rowWith(new Map([[`revolut:${hash('payee')}`, record('revolut', 4)]])).maker?.id, 4);
  t.false('maker' in rowWith(new Map([[`venmo:${hash('payee')}`, record('venmo', 5)]])), 'a record on another platform is not this payee’s');
  t.is(rowWith(new Map([[`zelle:${hash('payee')}`, record('zelle', 6)]]), zelleDeposit).maker?.id, 6);
  t.is(
    rowWith(
      new Map([
        [`zelle:${hash('payee')}`, record('zelle', 6)],
        [`zelle-chase:${hash('payee')}`, record('zelle-chase', 7)],
      ]),
      zelleDeposit,
    ).maker?.id,
    7,
  );
});
