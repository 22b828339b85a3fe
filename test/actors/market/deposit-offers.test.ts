/** The book's ranking and filtering on plain documents: each rule has a case that fails without it. */
import test from 'ava';
import { keccak256, toBytes, zeroAddress, type Hex } from 'viem';
import { bookDeposit, depositDocument, rankOffers, takeableRanges, type LiquidityDepositDoc, type OfferQuery } from '../../../actors/market/deposit-offers.js';

const USDC = 1_000_000n;
const hash = (text: string) => keccak256(toBytes(text));
const VENMO = hash('venmo');
const REVOLUT = hash('revolut');
const USD = hash('USD');
const EUR = hash('EUR');
const JPY = hash('JPY');
const RATE = 10n ** 18n;

/** A public, open deposit of 1,000 USDC taking venmo USD at 1.00 for intents of 1 to 500 USDC. */
function deposit(id: string, overrides: Partial<LiquidityDepositDoc> = {}, rate = RATE, payee = hash(`payee-${id}`)): LiquidityDepositDoc {
  return {
    _id: id,
    depositor: zeroAddress,
    token: zeroAddress,
    available: (1_000n * USDC).toString(),
    locked: '0',
    intentMin: USDC.toString(),
    intentMax: (500n * USDC).toString(),
    closed: false,
    isPrivate: false,
    sellerAutomatedRelease: false,
    disputeProtection: false,
    methods: [{ paymentMethod: VENMO, payeeDetails: payee, currencies: [{ currency: USD, minConversionRate: rate.toString() }] }],
    rateManager: null,
    intentsSignaled: 0,
    intentsFulfilled: 0,
    totalDeposited: (1_000n * USDC).toString(),
    totalTaken: '0',
    createdAt: 0,
    chainUpdatedAt: 0,
    offers: [`${VENMO}:${USD}`],
    asOfSequence: 1,
    updatedAt: 0,
    ...overrides,
  };
}

const venmoUsd = (usdcAmount: bigint, more: Partial<OfferQuery> = {}): OfferQuery => ({ paymentMethod: VENMO, currency: USD, usdcAmount, ...more });
const ids = (docs: LiquidityDepositDoc[], query: OfferQuery) => rankOffers(docs, query).map((offer) => offer.depositId);

test('an offer carries the deposit’s floor for the method and currency, its payee and its terms', (t) => {
  const [offer] = rankOffers([deposit('7', { sellerAutomatedRelease: true }, 1_005n * 10n ** 15n, hash('3141592653'))], venmoUsd(10n * USDC));
  t.deepEqual(offer, {
    depositId: '7',
    depositor: zeroAddress,
    payeeDetails: hash('3141592653'),
    conversionRate: 1_005n * 10n ** 15n,
    available: 1_000n * USDC,
    intentMin: USDC,
    intentMax: 500n * USDC,
    sellerAutomatedRelease: true,
    disputeProtection: false,
  });
});

test('only the asked currency on the asked method', (t) => {
  const eurOnVenmo = deposit('2', {
    methods: [{ paymentMethod: VENMO, payeeDetails: hash('p2'), currencies: [{ currency: EUR, minConversionRate: RATE.toString() }] }],
  });
  const usdOnRevolut = deposit('3', {
    methods: [{ paymentMethod: REVOLUT, payeeDetails: hash('p3'), currencies: [{ currency: USD, minConversionRate: RATE.toString() }] }],
  });
  t.deepEqual(ids([deposit('1'), eurOnVenmo, usdOnRevolut], venmoUsd(10n * USDC)), ['1']);
});

test('hashes match whatever their case', (t) => {
  t.deepEqual(
    ids([deposit('1')], {
      paymentMethod: VENMO.toUpperCase().replace('0X', '0x') as Hex,
      currency: USD.toUpperCase().replace('0X', '0x') as Hex,
      usdcAmount: USDC,
    }),
    ['1'],
  );
});

test('closed and private deposits are left out', (t) => {
  t.deepEqual(ids([deposit('1'), deposit('2', { closed: true }), deposit('3', { isPrivate: true })], venmoUsd(10n * USDC)), ['1']);
});

test('the available amount must cover the intent, compared as whole numbers and not as text', (t) => {
  // '999999' sorts after '1000000' as text.
  const docs = [deposit('1', { available: '999999' }), deposit('2', { available: '1000000' }), deposit('3', { available: '10000000' })];
  t.deepEqual(ids(docs, venmoUsd(USDC)), ['3', '2']);
  t.deepEqual(ids(docs, venmoUsd(USDC + 1n)), ['3']);
});

test('the intent range admits the amount, bounds included', (t) => {
  const docs = [deposit('1', { intentMin: (10n * USDC).toString(), intentMax: (20n * USDC).toString() })];
  t.deepEqual(ids(docs, venmoUsd(10n * USDC)), ['1']);
  t.deepEqual(ids(docs, venmoUsd(20n * USDC)), ['1']);
  t.deepEqual(ids(docs, venmoUsd(10n * USDC - 1n)), [], 'below the minimum');
  t.deepEqual(ids(docs, venmoUsd(20n * USDC + 1n)), [], 'above the maximum');
});

test('excluded payees are skipped whatever their case', (t) => {
  const docs = [deposit('1', {}, RATE, hash('a')), deposit('2', {}, RATE, hash('b'))];
  t.deepEqual(ids(docs, venmoUsd(USDC, { excludedPayees: [hash('a').toUpperCase().replace('0X', '0x')] })), ['2']);
});

test('the lowest floor first, compared exactly beyond a double’s precision', (t) => {
  const docs = [deposit('1', {}, RATE + 1n), deposit('2', {}, RATE), deposit('3', {}, 995n * 10n ** 15n)];
  t.deepEqual(ids(docs, venmoUsd(USDC)), ['3', '2', '1']);
});

test('among equal floors the deepest deposit first, then the lower id as a number', (t) => {
  const docs = [deposit('10'), deposit('9'), deposit('11', { available: (2_000n * USDC).toString() })];
  t.deepEqual(ids(docs, venmoUsd(USDC)), ['11', '9', '10']);
});

test('limit keeps the best', (t) => {
  const docs = [deposit('1', {}, RATE + 2n), deposit('2', {}, RATE), deposit('3', {}, RATE + 1n)];
  t.deepEqual(ids(docs, venmoUsd(USDC, { limit: 2 })), ['2', '3']);
});

/** A venmo JPY deposit at `rate`; the reference prices JPY at 150 per USD. */
const jpy = (id: string, rate: bigint) =>
  deposit(id, { methods: [{ paymentMethod: VENMO, payeeDetails: hash(`p${id}`), currencies: [{ currency: JPY, minConversionRate: rate.toString() }] }] });
const JPY_BAND = { referenceRate: 150_000_000n, extremeSpreadBps: 2_000n };

test('a JPY floor written as USDC per fiat (1/150, where 150 was meant) ranks first, and the band leaves it out', (t) => {
  const wrongUnit = jpy('1', 10n ** 18n / 150n);
  const sane = jpy('2', 151n * 10n ** 18n);
  const venmoJpy = { paymentMethod: VENMO, currency: JPY, usdcAmount: 10n * USDC };
  t.deepEqual(ids([wrongUnit, sane], venmoJpy), ['1', '2'], 'by price alone it is the cheapest, about 22,500 times under the market');
  t.deepEqual(ids([wrongUnit, sane], { ...venmoJpy, band: JPY_BAND }), ['2']);
});

test('the band keeps floors at its edge either way and leaves out those just past it', (t) => {
  // Against 1.00: 0.80 is −2,000 bps and 1.20 +2,000; one unit of 1e14 further is past the edge.
  const docs = [
    deposit('1', {}, 8n * 10n ** 17n),
    deposit('2', {}, 8n * 10n ** 17n - 10n ** 14n),
    deposit('3', {}, 12n * 10n ** 17n),
    deposit('4', {}, 12n * 10n ** 17n + 10n ** 14n),
  ];
  t.deepEqual(ids(docs, venmoUsd(USDC, { band: { referenceRate: 1_000_000n, extremeSpreadBps: 2_000n } })), ['1', '3']);
  t.deepEqual(ids(docs, venmoUsd(USDC)), ['2', '1', '3', '4'], 'no band, nothing left out');
});

test('takeable ranges count only the floors inside the band, as quotes do', (t) => {
  const docs = [jpy('1', 10n ** 18n / 150n), jpy('2', 151n * 10n ** 18n)];
  const depositIds = (band?: typeof JPY_BAND) => takeableRanges(docs, VENMO, JPY, band).map((range) => range.depositId);
  t.deepEqual(depositIds(), ['1', '2']);
  t.deepEqual(depositIds(JPY_BAND), ['2']);
});

test('a query with no amount or a bad limit is refused', (t) => {
  t.throws(() => rankOffers([], venmoUsd(0n)), { instanceOf: RangeError });
  t.throws(() => rankOffers([], venmoUsd(USDC, { limit: 0 })), { instanceOf: RangeError });
  t.throws(() => rankOffers([], venmoUsd(USDC, { limit: 1.5 })), { instanceOf: RangeError });
});

test('a GetDeposit answer becomes a document with currencies under the methods that name a payee, and back to bigints', (t) => {
  const doc = depositDocument(
    {
      deposit: {
        depositId: '4',
        depositor: '0xAbC',
        token: '0xDeF',
        amount: '900',
        intentAmountMin: '1',
        intentAmountMax: '2',
        delegate: zeroAddress,
        intentGuardian: zeroAddress,
      },
      closed: false,
      available: '700',
      locked: '200',
      intentAmountMin: '5',
      intentAmountMax: '600',
      paymentMethods: [{ depositId: '4', paymentMethod: VENMO.toUpperCase().replace('0X', '0x'), payeeDetails: hash('p') }],
      currencies: [
        { depositId: '4', paymentMethod: VENMO, currency: USD, minConversionRate: '1000000000000000001' },
        // Its method was switched off: the floor stays on chain but no intent can take it.
        { depositId: '4', paymentMethod: REVOLUT, currency: EUR, minConversionRate: RATE.toString() },
      ],
      rateManager: zeroAddress,
      intentsSignaled: 3,
      intentsFulfilled: 1,
      totalDeposited: '900',
      totalTaken: '100',
      createdAt: 1_700_000_000n,
      updatedAt: 1_700_000_600n,
      isPrivate: false,
      disputeProtectionEnabled: true,
      sellerAutomatedRelease: false,
      asOfSequence: 12n,
      rateBounds: [],
    },
    15,
    1234,
  );
  t.deepEqual(doc.methods, [{ paymentMethod: VENMO, payeeDetails: hash('p'), currencies: [{ currency: USD, minConversionRate: '1000000000000000001' }] }]);
  t.deepEqual(doc.offers, [`${VENMO}:${USD}`]);
  t.like(doc, { _id: '4', intentMin: '5', intentMax: '600', disputeProtection: true, asOfSequence: 15, updatedAt: 1234 });
  t.like(doc, {
    rateManager: null,
    intentsSignaled: 3,
    intentsFulfilled: 1,
    totalDeposited: '900',
    totalTaken: '100',
    createdAt: 1_700_000_000,
    chainUpdatedAt: 1_700_000_600,
  });

  // As a store would hand it back.
  const stored = JSON.parse(JSON.stringify(doc)) as LiquidityDepositDoc;
  t.like(bookDeposit(stored), { depositId: '4', available: 700n, locked: 200n, intentMin: 5n, intentMax: 600n, asOfSequence: 15 });
  t.is(bookDeposit(stored).methods[0]!.currencies[0]!.minConversionRate, RATE + 1n);
});
