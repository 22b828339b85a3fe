/**
 * A payout's listing taken back, end to end on the local chain (docs/payout-checkout.md,
 * "Listing exits"): after a buyer paid part, the customer sends the listed remainder to an
 * address (one batch of the wallet withdraws the listing and sends it on, straight in USDC on
 * Base or through the provider), and SETTLED says what buyers paid and what was sent; or takes
 * the listing back to choose another method (FUNDED, what buyers paid kept), and is then paid
 * the rest another way. A last payment that leaves a rest at or below the escrow's dust threshold
 * settles it with the rest swept as dust.
 */
import test from 'ava';
import { erc20Abi, type Address } from 'viem';
import { decode } from '../../actors/index.js';
import { escrowAbi } from '../../indexer/chain/index.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { formatUsdc, formatUsdcCents, parseUsdc } from '../../machines/money.js';
import { answerOf, recordEvents } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { USDC_ON_BASE, WORKED_PAYOUT_SETTINGS } from '../support/payout-fakes.js';
import { payoutBuyer } from '../support/payout-buyer.js';
import { untilOnClock } from '../support/real-time-poll.js';
import { fundedLocalPayout, type LocalPayout } from '../support/local-payout.js';

const CUSTOMER_VENMO = '1618033988';
const USDT_ON_ARBITRUM = '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9';

async function listedOnVenmo(t: { teardown(fn: () => Promise<void>): void }, key: string) {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, PAYOUT_FUNDING_POLL_MS: 1_000 });
  t.teardown(() => gateway.stop());
  const events = await recordEvents(gateway);
  const payout = await fundedLocalPayout(gateway, key, 'ana@example.com', [...WORKED_PAYOUT_SETTINGS.methods, 'routea_42161']);
  const login = await payout.signIn();
  answerOf(await payout.checkout('PUT', '/method', { rail: 'venmo', payeeHandle: CUSTOMER_VENMO }, login), 200, 'the method');
  answerOf(await payout.checkout('POST', '/skip-connect', undefined, login), 200, 'skip');
  answerOf(await payout.checkout('POST', '/confirm', undefined, login), 200, 'the confirm');
  await state(gateway, payout, (read) => read.payout.status === 'LISTING', 'the listing');
  return { gateway, events, payout, login };
}

function state(gateway: TestGateway, payout: LocalPayout, done: (state: any) => boolean, what: string): Promise<any> {
  return untilOnClock(gateway.clock, async () => answerOf(await payout.checkout('GET'), 200, 'the state'), done, what);
}

async function balanceOf(gateway: TestGateway, address: Address, token?: Address): Promise<bigint> {
  const local = gateway.node.chain!.localChain!;
  return local.publicClient.readContract({ address: token ?? local.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
}

/** A buyer of document 1's checkout pays 40 USDC of the listing: LISTING again with paidAmount. */
async function partlyPaid(gateway: TestGateway, payout: LocalPayout) {
  await payoutBuyer(gateway, payout.merchant.liveKey, 'venmo', CUSTOMER_VENMO).buy('40', 'buyer-one');
  return state(gateway, payout, (read) => read.payout.status === 'LISTING' && read.payout.paidAmount !== '0.00', 'the partial payment');
}

test('after a partial payment the remainder is sent to an address in USDC on Base: one batch withdraws and sends it; SETTLED with what buyers paid and what was sent', async (t) => {
  t.timeout(240_000);
  const { gateway, events, payout, login } = await listedOnVenmo(t, 'exits-local-1');
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const base = { rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: recipient };
  const early = await payout.checkout('POST', '/send-to-address', base, login);
  t.is(early.status, 409);
  t.like(early.body, { errorCode: 'CASHOUT_SEND_NOT_ALLOWED', responseObject: { status: 'LISTING', actions: ['SIGN_IN', 'WITHDRAW'] } });

  const partial = await partlyPaid(gateway, payout);
  t.deepEqual(partial.actions, ['SIGN_IN', 'RELIST', 'WITHDRAW', 'SEND_TO_ADDRESS']);
  const remainder = parseUsdc(partial.payout.depositAmount) - parseUsdc(partial.payout.paidAmount);
  const quote = answerOf(await payout.checkout('POST', '/payout-quote', base, login), 200, 'the quote');
  t.is(parseUsdc(quote.usdcAmount), remainder);
  t.is(quote.estimatedAmount, quote.usdcAmount);

  const sending = answerOf(await payout.checkout('POST', '/send-to-address', base, login), 200, 'send-to-address');
  t.like(sending, { payout: { status: 'LISTING' }, actions: ['SIGN_IN'] });
  const again = await payout.checkout('POST', '/send-to-address', base, login);
  t.is(again.body.errorCode, 'CASHOUT_SEND_IN_PROGRESS');
  const settled = await untilOnClock(gateway.clock, payout.read, (read) => read.status === 'SETTLED', 'SETTLED');
  t.is(parseUsdc(settled.settlement.buyerPaidAmount) + parseUsdc(settled.settlement.sentAmount), parseUsdc(settled.depositAmount));
  t.like(settled, {
    settlement: { buyerPaidAmount: partial.payout.paidAmount, returnedAmount: '0.00', sentTo: recipient.toLowerCase() },
    payoutTransfer: { chainId: 8453, address: recipient, provider: null },
  });
  t.is(await balanceOf(gateway, recipient), remainder);
  t.deepEqual(
    (await events.typesOf(payout.created.payoutId)).filter((type) => type.startsWith('PAYOUT_ORDER_')),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_FUNDED', 'PAYOUT_ORDER_MATCHED', 'PAYOUT_ORDER_PARTIALLY_PAID', 'PAYOUT_ORDER_SETTLED'],
  );
});

test('after a partial payment the remainder goes to USDT on Arbitrum through the provider: LISTING while it bridges, then SETTLED', async (t) => {
  t.timeout(240_000);
  const { gateway, payout, login } = await listedOnVenmo(t, 'exits-local-2');
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const partial = await partlyPaid(gateway, payout);
  const remainder = parseUsdc(partial.payout.depositAmount) - parseUsdc(partial.payout.paidAmount);
  gateway.node.conversions.simulator!.hold(true);
  answerOf(await payout.checkout('POST', '/send-to-address', { rail: 'routea_42161', tokenAddress: USDT_ON_ARBITRUM, address: recipient }, login), 200, 'send');
  const bridging = await state(gateway, payout, (read) => read.payoutBridge?.status === 'BRIDGING', 'the remainder bridging');
  t.like(bridging, { payout: { status: 'LISTING' }, actions: ['SIGN_IN'] });
  t.is(parseUsdc(bridging.payoutBridge.usdcAmount), remainder);
  t.is((await payout.checkout('POST', '/withdraw', undefined, login)).body.errorCode, 'CASHOUT_PAYOUT_BRIDGING');
  gateway.node.conversions.simulator!.hold(false);
  const settled = await untilOnClock(gateway.clock, payout.read, (read) => read.status === 'SETTLED', 'SETTLED');
  t.like(settled, { payoutTransfer: { chainId: 42161, address: recipient, provider: 'ROUTEA' }, settlement: { buyerPaidAmount: partial.payout.paidAmount } });
  t.is(parseUsdc(settled.settlement.sentAmount), remainder);
});

test('after a partial payment the listing is relisted for what is left, then taken back: FUNDED again with what buyers paid kept; the rest is then paid another way', async (t) => {
  t.timeout(240_000);
  const { gateway, payout, login } = await listedOnVenmo(t, 'exits-local-3');
  const partial = await partlyPaid(gateway, payout);

  // The listing took buyers up to the whole payout; relisted, up to what is left.
  t.deepEqual(partial.actions, ['SIGN_IN', 'RELIST', 'WITHDRAW', 'SEND_TO_ADDRESS']);
  answerOf(await payout.checkout('POST', '/relist', undefined, login), 200, 'the relist');
  const relisted = await state(gateway, payout, (read) => read.timeline.some((entry: { type: string }) => entry.type === 'RELISTED'), 'relisted');
  t.like(relisted, { payout: { status: 'LISTING' }, actions: ['SIGN_IN', 'WITHDRAW', 'SEND_TO_ADDRESS'] });
  const left = parseUsdc(partial.payout.depositAmount) - parseUsdc(partial.payout.paidAmount);
  const doc = await gateway.node.system.documents('payout').findOne({ _id: payout.created.payoutId });
  const depositId = (decode(doc!.snapshot) as { context: { listing: { depositId: string } } }).context.listing.depositId;
  const local = gateway.node.chain!.localChain!;
  const onChain = await local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [BigInt(depositId)] });
  t.is(onChain.intentAmountRange.max, left, 'the escrow takes buyers up to what is left');
  const again = await payout.checkout('POST', '/relist', undefined, login);
  t.is(again.status, 409);
  t.like(again.body, { errorCode: 'CASHOUT_RELIST_NOT_ALLOWED', responseObject: { status: 'LISTING' } });

  const wallet = ((await gateway.node.system.documents('payout').findOne({ _id: payout.created.payoutId }))!.view as { walletAddress: Address }).walletAddress;
  const held = await balanceOf(gateway, wallet);
  answerOf(await payout.checkout('POST', '/withdraw', undefined, login), 200, 'the withdrawal');
  const funded = await state(gateway, payout, (read) => read.payout.status === 'FUNDED', 'FUNDED again');
  t.like(funded, { payout: { paidAmount: partial.payout.paidAmount, partialFills: partial.payout.partialFills }, actions: ['SIGN_IN', 'SAVE_METHOD'] });
  t.true(funded.timeline.some((entry: { type: string }) => entry.type === 'LISTING_WITHDRAWN'));
  const remainder = parseUsdc(partial.payout.depositAmount) - parseUsdc(partial.payout.paidAmount);
  t.is((await balanceOf(gateway, wallet)) - held, remainder, 'the listed remainder is back in the wallet');
  t.is((await payout.checkout('POST', '/withdraw', undefined, login)).body.errorCode, 'CASHOUT_ATTEMPT_NOT_LISTED');

  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  answerOf(await payout.checkout('PUT', '/method', { rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: recipient }, login), 200, 'USDC on Base');
  answerOf(await payout.checkout('POST', '/confirm', undefined, login), 200, 'the confirm');
  const settled = await untilOnClock(gateway.clock, payout.read, (read) => read.status === 'SETTLED', 'SETTLED');
  t.like(settled, { settlement: { buyerPaidAmount: partial.payout.paidAmount } });
  t.is(parseUsdc(settled.settlement.sentAmount), remainder);
  t.is(await balanceOf(gateway, recipient), remainder);
});

test('a buyer who pays all but 0.01 USDC leaves a rest the escrow sweeps as dust: SETTLED with dustAmount, no partial payment announced', async (t) => {
  t.timeout(240_000);
  const { gateway, events, payout } = await listedOnVenmo(t, 'exits-local-4');
  const deposit = parseUsdc((await payout.read()).depositAmount);
  const allButDust = deposit - 10_000n;
  await payoutBuyer(gateway, payout.merchant.liveKey, 'venmo', CUSTOMER_VENMO).buy(formatUsdc(allButDust), 'buyer-all-but-dust');
  const settled = await untilOnClock(gateway.clock, payout.read, (read) => read.status === 'SETTLED', 'SETTLED');
  t.like(settled, {
    partialFills: [],
    settlement: { buyerPaidAmount: formatUsdcCents(allButDust), dustAmount: '0.01', returnedAmount: '0.00', sentAmount: '0.00' },
  });
  t.deepEqual(
    (await events.typesOf(payout.created.payoutId)).filter((type) => type.startsWith('PAYOUT_ORDER_')),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_FUNDED', 'PAYOUT_ORDER_MATCHED', 'PAYOUT_ORDER_SETTLED'],
  );
});
