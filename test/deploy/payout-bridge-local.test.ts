/**
 * Crypto payouts through the conversion provider, end to end on the local chain (document 2,
 * payout-quote and send-to-address; docs/payout-checkout.md, "Crypto through the provider"):
 * the customer prices USDT on Arbitrum, confirms, and the wallet sends the USDC to the
 * provider's deposit address once; the payout stays READY, its payoutBridge QUOTED then
 * BRIDGING, blocking every action, until the local provider delivers the USDT (a real transfer
 * of its stand-in) and the payout is SETTLED with payoutTransfer by ROUTEA. A refunded bridge
 * sends it back to READY once the refund is read on Base, with no webhook, and what the refund
 * came back short is settlement.refundFeeAmount of the payout settled next. Quote refusals
 * and failures bind and send nothing.
 */
import test from 'ava';
import { erc20Abi, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { answerOf, recordEvents } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { USDC_ON_BASE, WORKED_PAYOUT_SETTINGS } from '../support/payout-fakes.js';
import { untilOnClock } from '../support/real-time-poll.js';
import { fundedLocalPayout } from '../support/local-payout.js';

const USDT_ON_ARBITRUM = '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9';
const METHODS = [...WORKED_PAYOUT_SETTINGS.methods, 'routea_42161'];

async function bridgeNode(t: { teardown(fn: () => Promise<void>): void }): Promise<TestGateway> {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, PAYOUT_FUNDING_POLL_MS: 1_000 });
  t.teardown(() => gateway.stop());
  return gateway;
}

async function usdcOf(gateway: TestGateway, address: Address, token?: Address): Promise<bigint> {
  const local = gateway.node.chain!.localChain!;
  return local.publicClient.readContract({ address: token ?? local.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
}

const walletOf = async (gateway: TestGateway, payoutId: string) =>
  ((await gateway.node.system.documents('payout').findOne({ _id: payoutId }))!.view as { walletAddress: Address }).walletAddress;

test('USDT on Arbitrum: priced, confirmed, bridged once while every action waits, delivered: SETTLED with payoutTransfer by ROUTEA', async (t) => {
  t.timeout(180_000);
  const gateway = await bridgeNode(t);
  const simulator = gateway.node.conversions.simulator!;
  const events = await recordEvents(gateway);
  const { created, read, checkout, signIn } = await fundedLocalPayout(gateway, 'bridge-local-1', 'ana@example.com', METHODS);
  const login = await signIn();
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const destination = { rail: 'routea_42161', tokenAddress: USDT_ON_ARBITRUM, address: recipient };
  answerOf(await checkout('PUT', '/method', destination, login), 200, 'the method');

  // 100 USDC less the local provider's 10 bps, at 1 USD per USDT.
  const quote = answerOf(await checkout('POST', '/payout-quote', destination, login), 200, 'the quote');
  t.like(quote, {
    destination: { chainId: 42161, tokenAddress: USDT_ON_ARBITRUM, symbol: 'USDT', decimals: 6, address: recipient },
    usdcAmount: '100.00',
    estimatedAmount: '99.9',
  });

  const wallet = await walletOf(gateway, created.payoutId);
  const before = await usdcOf(gateway, wallet);
  simulator.hold(true);
  const confirmed = answerOf(await checkout('POST', '/confirm', undefined, login), 200, 'the confirm');
  t.like(confirmed, {
    payout: { status: 'READY' },
    actions: ['SIGN_IN'],
    payoutBridge: { provider: 'ROUTEA', status: 'QUOTED', usdcAmount: '100.00', estimatedAmount: '99.9' },
  });
  const bridging = await untilOnClock(
    gateway.clock,
    async () => answerOf(await checkout('GET'), 200, 'the state'),
    (state) => state.payoutBridge?.status === 'BRIDGING',
    'the USDC sent to the provider',
  );
  t.like(bridging, { payout: { status: 'READY' }, actions: ['SIGN_IN'], settleTx: null });
  t.is(before - (await usdcOf(gateway, wallet)), 100_000_000n, 'the wallet sent the payout’s USDC, once');
  // Document 2: no customer actions until delivery.
  const blocked = await checkout('PUT', '/method', { rail: 'zelle', payeeHandle: 'ana@example.com' }, login);
  t.is(blocked.status, 409);
  t.like(blocked.body, { errorCode: 'CASHOUT_PAYOUT_BRIDGING', responseObject: { status: 'READY', actions: ['SIGN_IN'] } });
  t.is((await checkout('POST', '/confirm', undefined, login)).body.errorCode, 'CASHOUT_PAYOUT_BRIDGING');

  simulator.hold(false);
  const settled = await untilOnClock(gateway.clock, read, (payout) => payout.status === 'SETTLED', 'SETTLED');
  t.like(settled, {
    attempt: { kind: 'CRYPTO', rail: 'routea_42161', status: 'SETTLED' },
    settlement: { buyerPaidAmount: '0.00', sentAmount: '100.00', sentTo: recipient.toLowerCase(), returnedAmount: '0.00', refundFeeAmount: '0.00' },
    payoutTransfer: { chainId: 42161, tokenAddress: USDT_ON_ARBITRUM, decimals: 6, address: recipient, amount: '99.9', provider: 'ROUTEA' },
  });
  t.not(settled.payoutTransfer.txHash, settled.payoutTransfer.usdcTxHash);
  const state = answerOf(await checkout('GET'), 200, 'the state');
  t.like(state, {
    payoutBridge: { status: 'DELIVERED', deliveredAmount: '99.9', destinationTxHash: settled.payoutTransfer.txHash },
    settleTx: { chainId: 42161 },
  });
  // The local chain stands in for Arbitrum: the USDT's stand-in really reached the address.
  const usdt = simulator.fundingStandIn(42161, USDT_ON_ARBITRUM);
  t.is(usdt?.kind, 'erc20');
  t.is(await usdcOf(gateway, recipient, (usdt as { token: { address: Address } }).token.address), 99_900_000n);
  t.deepEqual(
    (await events.typesOf(created.payoutId)).filter((type) => type.startsWith('PAYOUT_ORDER_')),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_FUNDED', 'PAYOUT_ORDER_SETTLED'],
  );
});

test('a bridge the provider refunds is READY again once the refund is read on Base, without a webhook; the next one settles with the refund’s shortfall as refundFeeAmount', async (t) => {
  t.timeout(180_000);
  const gateway = await bridgeNode(t);
  const simulator = gateway.node.conversions.simulator!;
  const events = await recordEvents(gateway);
  const { created, read, checkout, signIn } = await fundedLocalPayout(gateway, 'bridge-local-2', 'ana@example.com', METHODS);
  const login = await signIn();
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const destination = { rail: 'routea_42161', tokenAddress: USDT_ON_ARBITRUM, address: recipient };
  answerOf(await checkout('PUT', '/method', destination, login), 200, 'the method');
  simulator.setBridgeFaults({ refund: { feeUsdc: '500000' } });
  answerOf(await checkout('POST', '/confirm', undefined, login), 200, 'the confirm');
  const refunded = await untilOnClock(
    gateway.clock,
    async () => answerOf(await checkout('GET'), 200, 'the state'),
    (state) => state.payoutBridge?.status === 'REFUNDED',
    'the refund read',
  );
  t.like(refunded, {
    unpaidAmount: '99.50',
    payout: { status: 'READY', attempt: { kind: 'CRYPTO', status: 'FAILED' } },
    actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'],
    payoutBridge: { status: 'REFUNDED', usdcAmount: '100.00', refundedAmount: '99.50', deliveredAmount: null },
    listingError: { code: 'CASHOUT_PAYOUT_REFUNDED' },
    settleTx: null,
  });
  t.regex(refunded.payoutBridge.refundTxHash, /^0x[0-9a-f]{64}$/);
  t.true(refunded.timeline.some((entry: { type: string }) => entry.type === 'PAYOUT_REFUNDED'));

  simulator.setBridgeFaults({});
  // What is left to pay is what came back: 99.50.
  t.like(answerOf(await checkout('POST', '/payout-quote', destination, login), 200, 'the quote'), { usdcAmount: '99.50' });
  answerOf(await checkout('POST', '/confirm', undefined, login), 200, 'the second confirm');
  const settled = await untilOnClock(gateway.clock, read, (payout) => payout.status === 'SETTLED', 'SETTLED');
  t.like(settled, { settlement: { buyerPaidAmount: '0.00', sentAmount: '99.50', returnedAmount: '0.00', dustAmount: '0.00', refundFeeAmount: '0.50' } });
  t.deepEqual(
    (await events.typesOf(created.payoutId)).filter((type) => type.startsWith('PAYOUT_ORDER_')),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_FUNDED', 'PAYOUT_ORDER_SETTLED'],
  );
});

test('quotes: USDC on Base is priced one for one without the provider; the provider’s refusals and failures are document 2’s codes and bind nothing; nothing is priced where nothing is offered', async (t) => {
  t.timeout(180_000);
  const gateway = await bridgeNode(t);
  const simulator = gateway.node.conversions.simulator!;
  const { checkout, signIn, created } = await fundedLocalPayout(gateway, 'bridge-local-3', 'ana@example.com', METHODS);
  const login = await signIn();
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const usdt = { rail: 'routea_42161', tokenAddress: USDT_ON_ARBITRUM, address: recipient };

  const notOffered = await checkout('POST', '/payout-quote', usdt, login);
  t.is(notOffered.status, 409);
  t.like(notOffered.body, { errorCode: 'CASHOUT_PAYOUT_QUOTE_NOT_ALLOWED', responseObject: { status: 'FUNDED', actions: ['SIGN_IN', 'SAVE_METHOD'] } });

  answerOf(await checkout('PUT', '/method', usdt, login), 200, 'the method');
  const unknownField = await checkout('POST', '/payout-quote', { ...usdt, chainId: 42161 }, login);
  t.is(unknownField.status, 400);
  const tooLong = await checkout('POST', '/payout-quote', { ...usdt, address: `0x${'1'.repeat(64)}` }, login);
  t.is(tooLong.status, 400);
  t.like((await checkout('POST', '/payout-quote', { ...usdt, tokenAddress: USDC_ON_BASE }, login)).body, {
    errorCode: 'CASHOUT_PAYOUT_DESTINATION_UNSUPPORTED',
  });

  // The provider down: USDC on Base is still priced, since it is never asked.
  simulator.setBridgeFaults({ quote: { status: 503 } });
  t.like(answerOf(await checkout('POST', '/payout-quote', { rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: recipient }, login), 200, 'Base'), {
    usdcAmount: '100.00',
    estimatedAmount: '100.00',
  });
  const failed = await checkout('POST', '/payout-quote', usdt, login);
  t.is(failed.status, 502);
  t.is(failed.body.errorCode, 'CASHOUT_PAYOUT_QUOTE_FAILED');
  const confirmFailed = await checkout('POST', '/confirm', undefined, login);
  t.is(confirmFailed.status, 502);
  t.is(confirmFailed.body.errorCode, 'CASHOUT_PAYOUT_QUOTE_FAILED');

  simulator.setBridgeFaults({ quote: { status: 400, code: 'AMOUNT_TOO_LOW', message: 'below the minimum' } });
  t.like((await checkout('POST', '/payout-quote', usdt, login)).body, { errorCode: 'CASHOUT_PAYOUT_AMOUNT_TOO_LOW' });
  t.like((await checkout('POST', '/confirm', undefined, login)).body, { errorCode: 'CASHOUT_PAYOUT_AMOUNT_TOO_LOW' });
  simulator.setBridgeFaults({ quote: { status: 400, code: 'ROUTE_UNAVAILABLE' } });
  t.like((await checkout('POST', '/payout-quote', usdt, login)).body, { errorCode: 'CASHOUT_PAYOUT_ROUTE_UNAVAILABLE' });

  // A refused or failed quote creates no attempt, transaction or bridge.
  const after = answerOf(await checkout('GET'), 200, 'the state');
  t.like(after, { payout: { status: 'READY', attempt: null }, actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'], payoutBridge: null });
  t.is(await usdcOf(gateway, await walletOf(gateway, created.payoutId)), 100_000_000n + 1_000_001n);
});
