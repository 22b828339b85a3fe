/**
 * A payout paid out to a fiat rail, end to end on the local chain as `npm start` runs it: the
 * merchant's payout funded in USDC through the local conversion provider; the customer signs in
 * with the code the node mailed (caught by the local mail catcher), chooses Venmo, skips
 * connecting, and confirms; the payout signer lists the 100 USDC from the customer's wallet as
 * an escrow deposit (LISTING, in the orderbook); then a checkout customer of document 1 buys
 * 40 USDC of it over Venmo, pays the customer in the platform simulator and proves it
 * (MATCHED, PARTIALLY_PAID), and a second buyer takes the rest (SETTLED, buyerPaidAmount
 * 100.00, every fill's fiat at the bound rate).
 */
import test from 'ava';
import type { Address } from 'viem';
import { erc20Abi } from 'viem';
import { answerOf, recordEvents } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { payoutBuyer } from '../support/payout-buyer.js';
import { untilOnClock } from '../support/real-time-poll.js';
import { fundedLocalPayout } from '../support/local-payout.js';

const CUSTOMER_VENMO = '1618033988';

function until<T>(gateway: TestGateway, read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  return untilOnClock(gateway.clock, read, done, what);
}

test('a payout listed on Venmo from the customer’s wallet is paid by two checkout buyers through the escrow: MATCHED, PARTIALLY_PAID, SETTLED', async (t) => {
  t.timeout(180_000);
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, PAYOUT_FUNDING_POLL_MS: 1_000 });
  t.teardown(() => gateway.stop());
  const { node } = gateway;
  const events = await recordEvents(gateway);
  const { merchant, created, read: merchantRead, checkout, signIn } = await fundedLocalPayout(gateway, 'listing-local-1');
  const loginToken = await signIn();
  const pending = answerOf(await checkout('PUT', '/method', { rail: 'venmo', payeeHandle: CUSTOMER_VENMO }, loginToken), 200, 'the method');
  t.like(pending, { payout: { status: 'FUNDED' }, actions: ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] });
  t.like(answerOf(await checkout('POST', '/skip-connect', undefined, loginToken), 200, 'skip'), { payout: { status: 'READY', payoutCurrency: 'USD' } });
  answerOf(await checkout('POST', '/confirm', undefined, loginToken), 200, 'the confirm');
  const listed = await until(
    gateway,
    async () => answerOf(await checkout('GET'), 200, 'the state'),
    (state) => state.payout.status === 'LISTING' || state.listingError !== null,
    'the listing to land',
  );
  t.is(listed.listingError, null);
  t.like(listed.payout, { status: 'LISTING', attempt: { kind: 'ESCROW', rail: 'venmo', status: 'ACTIVE' } });

  // Two buyers of document 1's checkout take it over Venmo, pay the customer, prove it.
  const buyer = payoutBuyer(gateway, merchant.liveKey, 'venmo', CUSTOMER_VENMO);
  const buyFromPayout = (usdc: string, who: string) =>
    buyer.buy(usdc, who, () => until(gateway, merchantRead, (payout) => payout.status === 'PAYING', 'the payout matched'));

  await buyFromPayout('40', 'first-buyer');
  const partial = await until(gateway, merchantRead, (payout) => payout.status === 'LISTING' && payout.paidAmount !== '0.00', 'the partial payment');
  t.is(partial.partialFills.length, 1);
  t.is(partial.partialFills[0].fiat.currency, 'USD');
  const paidFirst = BigInt(Math.round(Number(partial.paidAmount) * 1e6));
  t.true(paidFirst > 0n && paidFirst < 100_000_000n);

  const rest = (100_000_000n - paidFirst) / 1_000_000n;
  await buyFromPayout(String(rest), 'second-buyer');
  const settled = await until(gateway, merchantRead, (payout) => payout.status === 'SETTLED' || payout.paidAmount === '100.00', 'the payout settled');
  t.like(settled, { status: 'SETTLED', paidAmount: '100.00', settlement: { buyerPaidAmount: '100.00', returnedAmount: '0.00' } });
  const types = (await events.typesOf(created.payoutId)).filter((type) => type.startsWith('PAYOUT_ORDER_'));
  t.deepEqual(types, [
    'PAYOUT_ORDER_CREATED',
    'PAYOUT_ORDER_FUNDED',
    'PAYOUT_ORDER_MATCHED',
    'PAYOUT_ORDER_PARTIALLY_PAID',
    'PAYOUT_ORDER_MATCHED',
    'PAYOUT_ORDER_SETTLED',
  ]);
  const local = node.chain!.localChain!;
  const wallet = (await node.system.documents('payout').findOne({ _id: created.payoutId }))!.view as { walletAddress: Address };
  // What arrived beyond the deposit (the price buffer) stays the customer's, in the wallet.
  t.is(await local.publicClient.readContract({ address: local.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [wallet.walletAddress] }), 1_000_001n);
});
