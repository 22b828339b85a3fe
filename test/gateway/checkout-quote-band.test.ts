/**
 * Checkout quotes skip deposits priced beyond ORDERBOOK_EXTREME_SPREAD_BPS (2,000 bps by
 * default) from the reference rate, either way, as the orderbook hides them: a floor written
 * in the wrong unit is the cheapest deposit by far, and the maker would sell at a fraction of
 * the price. On a node with its local chain, indexer and seeded makers (Revolut EUR at 0.925;
 * the local rate table prices EUR at 0.92), plus the deposits each test adds.
 */
import test from 'ava';
import { keccak256, parseUnits, toBytes } from 'viem';
import { anvilTestAccount, escrowAbi } from '../../indexer/chain/index.js';
import { placeOrder } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { depositOn } from '../support/local-deposit.js';
import { ratesProvider } from '../support/rates-provider.js';
import { acceptCurrency } from '../support/local-intent.js';
import { untilOnClock } from '../support/real-time-poll.js';

const USDC = 1_000_000n;
const SEEDED_DEPOSITS = 8;
/** A maker account the node signs nothing with. */
const MAKER = 5;

async function liveNode(t: { teardown(fn: () => Promise<void>): void }): Promise<TestGateway> {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, LOCAL_MAKERS: true });
  t.teardown(() => gateway.stop());
  return gateway;
}

/** A Revolut EUR deposit of 900 USDC at `rate` (fiat per USDC), paid to `payeeId`, registered so that checkout can name it. */
async function revolutEur(gateway: TestGateway, payeeId: string, rate: string): Promise<void> {
  const local = gateway.node.chain!.localChain!;
  const maker = anvilTestAccount(MAKER);
  await local.mintUsdc(maker.address, 900n * USDC);
  const { depositId } = await depositOn(local, maker, 900n * USDC, { range: { min: USDC, max: 500n * USDC } });
  const method = keccak256(toBytes('revolut'));
  await local.confirm(
    await local.walletFor(maker).writeContract({
      address: local.escrow,
      abi: escrowAbi,
      functionName: 'setPaymentMethod',
      args: [depositId, method, keccak256(toBytes(payeeId))],
    }),
  );
  await acceptCurrency(local, maker, depositId, method, keccak256(toBytes('EUR')), parseUnits(rate, 18));
  await gateway.node.payees!.register('revolut', payeeId, new Date(gateway.clock.now()).toISOString());
}

/** Waits until the liquidity book holds `count` priced deposits. */
async function priced(gateway: TestGateway, count: number): Promise<void> {
  const pricedCount = async () => (await gateway.node.liquidity!.openDeposits()).filter((deposit) => deposit.offers.length > 0).length;
  await untilOnClock(gateway.clock, pricedCount, (n) => n === count, `${count} priced deposits in the book`);
}

/** Whom a live 25 USDC order's Revolut EUR quotes pay, best first. */
async function quotedPayees(gateway: TestGateway): Promise<string[]> {
  const { liveKey } = await gateway.createMerchant();
  const order = await placeOrder(gateway, liveKey);
  const answer = await order.customer('GET', '/quotes?rail=revolut&currency=EUR&quoteLimit=10');
  if (answer.status !== 200) throw new Error(`quotes: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.responseObject.platforms.map((quote: { payTo: string }) => quote.payTo);
}

test('a floor about 22,500 times under the market (a JPY floor written as USDC per fiat) is not quoted though it is the cheapest; the sane one is', async (t) => {
  const gateway = await liveNode(t);
  // 0.925 / 22,500: as far off as a JPY floor of 1/150 where 150 was meant.
  await revolutEur(gateway, 'wrongunit', '0.0000411');
  await priced(gateway, SEEDED_DEPOSITS + 1);

  t.deepEqual(await quotedPayees(gateway), ['makerben']);

  const { liveKey } = await gateway.createMerchant();
  const availability = await gateway.request('POST', '/api/v1/merchants/me/quotes/availability', {
    key: liveKey,
    body: { amount: '25', enabledRails: ['revolut'], fiatCurrency: 'EUR' },
  });
  t.is(availability.status, 200, JSON.stringify(availability.body));
  t.is(availability.body.responseObject.quoteCount, 1, 'availability counts only the deposits a checkout would quote');
});

test('floors just inside the band either way are quoted, in price order; just outside are not', async (t) => {
  const gateway = await liveNode(t);
  // Against EUR at 0.92: 0.736 is −20.00 %, 0.7359 −20.01 %, 1.104 +20.00 %, 1.1041 +20.01 %.
  await revolutEur(gateway, 'insidelow', '0.736');
  await revolutEur(gateway, 'outsidelow', '0.7359');
  await revolutEur(gateway, 'insidehigh', '1.104');
  await revolutEur(gateway, 'outsidehigh', '1.1041');
  await priced(gateway, SEEDED_DEPOSITS + 4);

  t.deepEqual(await quotedPayees(gateway), ['insidelow', 'makerben', 'insidehigh']);
});

test('while the rates cannot be read, a live availability in USDC still answers from the book, every deposit counted', async (t) => {
  const provider = await ratesProvider(t, { EUR: '0.92' });
  const gateway = await startTestGateway({
    INDEXER_ENABLED: true,
    ENCLAVE_ENABLED: true,
    INDEXER_POLL_MS: 20,
    LOCAL_MAKERS: true,
    RATES_URL: provider.url,
    RATES_MAX_AGE_MS: 60_000,
  });
  t.teardown(() => gateway.stop());
  await revolutEur(gateway, 'wrongunit', '0.0000411');
  await priced(gateway, SEEDED_DEPOSITS + 1);
  const { liveKey } = await gateway.createMerchant();
  const ask = () =>
    gateway.request('POST', '/api/v1/merchants/me/quotes/availability', {
      key: liveKey,
      body: { amount: '25', enabledRails: ['revolut'], fiatCurrency: 'EUR' },
    });
  t.is((await ask()).body.responseObject.quoteCount, 1, 'with a reference rate, the far-off floor is left out');

  provider.answer((response) => {
    response.statusCode = 503;
    response.end();
  });
  await gateway.clock.advance(61_000);
  const answer = await ask();
  t.is(answer.status, 200, JSON.stringify(answer.body));
  t.is(answer.body.responseObject.quoteCount, 2, 'without one, no deposit is left out for its price');
});
