/**
 * The local conversion provider's funding side, through the HTTP client a node uses
 * (HttpFundingProvider), on a local chain of the test's own: quotes idempotent by reference,
 * transfers of USDC, a stand-in stablecoin, native ETH and simulated Bitcoin each converted to
 * USDC with the app fees paid apart, refunds of transfers too small to route, holds, faults,
 * and activity reports to a callback.
 */
import test, { type ExecutionContext } from 'ava';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { erc20Abi, formatUnits, parseEventLogs, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createLogger } from '../../../actors/index.js';
import {
  ConversionRefused,
  FUNDING_AMOUNT_TOO_LOW,
  FUNDING_ROUTE_UNAVAILABLE,
  FundingProviderUnavailable,
  HttpFundingProvider,
  type FundingActivity,
  type FundingRequest,
  type FundingTransfer,
} from '../../../actors/adapters/conversion/index.js';
import { ConversionSimulator, fundingOriginAmount, usdcPerToken } from '../../../deploy/conversion-simulator/index.js';
import { startLocalChain, type LocalChain } from '../../../indexer/chain/index.js';
import { BASE_CHAIN_ID, BASE_USDC_ADDRESS, BITCOIN_CHAIN_ID, BTC_TOKEN_ADDRESS, NATIVE_TOKEN_ADDRESS } from '../../../machines/payout/funding-catalog.js';

const NOW = Date.parse('2030-01-02T03:04:05.000Z');
const ETHEREUM_USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const BNB_USDT = '0x55d398326f99059fF775485246999027B3197955';
const REFUND_BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

let chain: LocalChain;
let simulator: ConversionSimulator;
let provider: HttpFundingProvider;
let references = 0;

test.before(async () => {
  chain = await startLocalChain();
  simulator = await ConversionSimulator.start({ chain, now: () => NOW, logger: createLogger({ level: 'silent' }), pollMs: 20 });
  provider = new HttpFundingProvider({ url: simulator.url, timeoutMs: 5_000 });
});

test.after.always(async () => {
  await simulator?.stop();
  await chain?.stop();
});

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

/** A payout's request for `amount` USDC base units delivered, fees 100 and 200 bps, each to a fresh wallet. */
function fundingRequest(overrides: Partial<FundingRequest> = {}): FundingRequest {
  return {
    reference: `payout-${++references}`,
    originChainId: BASE_CHAIN_ID,
    originTokenAddress: BASE_USDC_ADDRESS,
    refundAddress: null,
    recipient: fresh(),
    destinationChainId: BASE_CHAIN_ID,
    destinationTokenAddress: BASE_USDC_ADDRESS,
    amount: 104_123_712n,
    appFees: [
      { recipient: fresh(), feeBps: 100 },
      { recipient: fresh(), feeBps: 200 },
    ],
    ...overrides,
  };
}

async function balanceOf(token: `0x${string}`, owner: `0x${string}`): Promise<bigint> {
  return chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

const usdcOf = (owner: `0x${string}`) => balanceOf(chain.usdc, owner);

async function post(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(path, simulator.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: (text.startsWith('{') ? JSON.parse(text) : { text }) as Record<string, unknown> };
}

/** The local customer's wallet sends `amount` (a decimal of the token) of a catalog token. */
async function walletSend(depositAddress: string, chainId: number, tokenAddress: string, amount: string): Promise<Hash> {
  const answer = await post('/_wallet/transfers', { depositAddress, chainId, tokenAddress, amount });
  if (answer.status !== 201) throw new Error(`the local wallet refused: ${JSON.stringify(answer.body)}`);
  return answer.body.transactionHash as Hash;
}

/** Polls the provider's activity in real time: the chain and the simulator's watch are real processes. */
async function until(requestId: string, done: (transfers: FundingTransfer[]) => boolean, what: string): Promise<FundingActivity> {
  let last: FundingActivity | null = null;
  for (let attempt = 0; attempt < 400; attempt++) {
    last = await provider.activity(requestId);
    if (done(last.transfers)) return last;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last, (_, value) => (typeof value === 'bigint' ? value.toString() : value))}`);
}

const allAre = (count: number, status: FundingTransfer['status']) => (transfers: FundingTransfer[]) =>
  transfers.length === count && transfers.every((transfer) => transfer.status === status);

/** The USDC each delivery transaction moved, in order: the customer's share first, then the fees. */
async function deliveries(hashes: readonly string[]): Promise<Array<{ to: string; value: bigint }>> {
  const moved: Array<{ to: string; value: bigint }> = [];
  for (const hash of hashes) {
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: hash as Hash });
    for (const log of parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' }))
      if (log.address.toLowerCase() === chain.usdc.toLowerCase()) moved.push({ to: log.args.to.toLowerCase(), value: log.args.value });
  }
  return moved;
}

async function refusal(t: ExecutionContext, promise: Promise<unknown>, code: string): Promise<void> {
  const error = await t.throwsAsync(promise, { instanceOf: ConversionRefused });
  t.is(error?.code, code);
}

test.serial(
  'a fault set on the provider is answered until cleared: refusals as ConversionRefused with their code, a 500 as FundingProviderUnavailable',
  async (t) => {
    t.teardown(() => simulator.clearFundingFaults());
    simulator.setFundingFaults({ openFunding: { status: 400, code: FUNDING_AMOUNT_TOO_LOW } });
    await refusal(t, provider.openFunding(fundingRequest()), FUNDING_AMOUNT_TOO_LOW);
    await refusal(t, provider.openFunding(fundingRequest()), FUNDING_AMOUNT_TOO_LOW);
    simulator.setFundingFaults({ openFunding: { status: 400, code: FUNDING_ROUTE_UNAVAILABLE, message: 'no solver today' } });
    const route = await t.throwsAsync(provider.openFunding(fundingRequest()), { instanceOf: ConversionRefused });
    t.is(route?.code, FUNDING_ROUTE_UNAVAILABLE);
    t.is(route?.message, 'no solver today');
    simulator.setFundingFaults({ openFunding: { status: 422, code: 'SLIPPAGE_TOO_HIGH' } });
    await refusal(t, provider.openFunding(fundingRequest()), 'SLIPPAGE_TOO_HIGH');
    simulator.setFundingFaults({ openFunding: { status: 500 } });
    await t.throwsAsync(provider.openFunding(fundingRequest()), { instanceOf: FundingProviderUnavailable });

    // The same through POST /_faults, and activity failing while quotes work.
    const quote = await (async () => {
      simulator.clearFundingFaults();
      return provider.openFunding(fundingRequest());
    })();
    const set = await post('/_faults', { activity: { status: 500 } });
    t.is(set.status, 200);
    t.deepEqual(set.body, { activity: { status: 500 } });
    await t.throwsAsync(provider.activity(quote.requestId), { instanceOf: FundingProviderUnavailable });
    t.truthy(await provider.openFunding(fundingRequest()));
    t.is((await post('/_faults', {})).status, 200);
    t.deepEqual(await provider.activity(quote.requestId), { requestId: quote.requestId, depositAddress: quote.depositAddress, transfers: [] });
  },
);

test.serial('a held transfer stays converting while later ones are seen; released, each is delivered', async (t) => {
  t.teardown(() => simulator.hold(false));
  const request = fundingRequest();
  const quote = await provider.openFunding(request);
  simulator.hold(true);
  const first = await walletSend(quote.depositAddress, BASE_CHAIN_ID, BASE_USDC_ADDRESS, '50');
  const seen = await until(quote.requestId, (transfers) => transfers.length === 1, 'the first transfer to be seen');
  t.is(seen.transfers[0]!.status, 'converting');
  t.is(seen.transfers[0]!.sourceTransactionHash, first);
  // The watch has run again since (it saw the second transfer), and the first still waits.
  await walletSend(quote.depositAddress, BASE_CHAIN_ID, BASE_USDC_ADDRESS, '54.123712');
  const held = await until(quote.requestId, (transfers) => transfers.length === 2, 'the second transfer to be seen');
  t.deepEqual(
    held.transfers.map((transfer) => transfer.status),
    ['converting', 'converting'],
  );
  t.is(await usdcOf(request.recipient), 0n);

  simulator.hold(false);
  const delivered = await until(quote.requestId, allAre(2, 'delivered'), 'both transfers to be delivered');
  t.deepEqual(
    delivered.transfers.map((transfer) => transfer.originAmount),
    [50_000_000n, 54_123_712n],
  );
  t.is(await usdcOf(request.recipient), 101_000_001n);
});

test.serial('releasing a hold many times while a conversion is paid pays it once', async (t) => {
  // A payment request, the simulator's older side: its watch and the funding desk's share one loop.
  const recipient = fresh();
  const quote = await post('/quote', {
    originChainId: 42161,
    originToken: 'USDC',
    destinationChainId: chain.chainId,
    destinationToken: chain.usdc,
    recipient,
    amount: '10000000',
    tradeType: 'EXACT_OUTPUT',
    appFees: [],
    expiresAt: new Date(NOW + 3_600_000).toISOString(),
  });
  t.is(quote.status, 200);
  simulator.hold(true);
  t.teardown(() => simulator.hold(false));
  const sent = await post('/_buyer/transfers', {
    depositAddress: quote.body.depositAddress,
    token: 'USDC',
    amount: formatUnits(BigInt(quote.body.originAmount as string), 6),
  });
  t.is(sent.status, 201);
  const status = async () => ((await (await fetch(`${simulator.url}/requests/${quote.body.requestId}`)).json()) as { status: string }).status;
  for (let attempt = 0; attempt < 400 && (await status()) !== 'pending'; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
  // A release every millisecond or so: some land while the first watch after the release is paying.
  for (let release = 0; release < 50; release++) {
    simulator.hold(false);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  for (let attempt = 0; attempt < 400 && (await status()) !== 'success'; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
  t.is(await status(), 'success');
  t.is(await usdcOf(recipient), 10_000_000n);
});

test('the quote is idempotent by reference: the same request answers the same deposit address; another under the reference is refused', async (t) => {
  const request = fundingRequest();
  const quote = await provider.openFunding(request);
  t.regex(quote.depositAddress, /^0x[0-9a-fA-F]{40}$/);
  t.deepEqual(await provider.openFunding({ ...request, recipient: request.recipient.toLowerCase() as `0x${string}` }), quote);
  await refusal(t, provider.openFunding({ ...request, amount: request.amount + 1n }), 'REFERENCE_CONFLICT');
  const other = await provider.openFunding({ ...request, reference: `${request.reference}-other` });
  t.not(other.requestId, quote.requestId);
  t.not(other.depositAddress, quote.depositAddress);
});

test('the provider refuses a route it does not take and an amount below its minimum', async (t) => {
  await refusal(t, provider.openFunding(fundingRequest({ amount: 999_999n })), FUNDING_AMOUNT_TOO_LOW);
  await refusal(t, provider.openFunding(fundingRequest({ originChainId: 10, originTokenAddress: ETHEREUM_USDT })), FUNDING_ROUTE_UNAVAILABLE);
  await refusal(t, provider.openFunding(fundingRequest({ originChainId: 7777 })), FUNDING_ROUTE_UNAVAILABLE);
  await refusal(t, provider.openFunding(fundingRequest({ destinationChainId: 1 })), FUNDING_ROUTE_UNAVAILABLE);
  await refusal(t, provider.openFunding(fundingRequest({ originChainId: BITCOIN_CHAIN_ID, originTokenAddress: BTC_TOKEN_ADDRESS })), 'INVALID_REFUND_ADDRESS');
  await refusal(
    t,
    provider.openFunding(fundingRequest({ originChainId: BITCOIN_CHAIN_ID, originTokenAddress: BTC_TOKEN_ADDRESS, refundAddress: fresh() })),
    'INVALID_REFUND_ADDRESS',
  );
});

test("document 2's worked numbers: 104.123712 USDC on Base delivers 101.000001 to the customer and each fee to its own recipient", async (t) => {
  const request = fundingRequest();
  const quote = await provider.openFunding(request);
  // USDC on Base to USDC on Base costs no provider fee: funding.amount is the amount delivered.
  t.is(quote.originAmount, 104_123_712n);
  t.is(quote.originDecimals, 6);
  t.is(quote.destinationAmount, 104_123_712n);
  const sent = await walletSend(quote.depositAddress, BASE_CHAIN_ID, BASE_USDC_ADDRESS, '104.123712');
  const activity = await until(quote.requestId, allAre(1, 'delivered'), 'the transfer to be delivered');
  const [transfer] = activity.transfers;
  t.is(transfer!.originAmount, 104_123_712n);
  t.is(transfer!.startedAt, new Date(NOW).toISOString());
  t.true(transfer!.swept);
  t.is(transfer!.sourceTransactionHash, sent);
  t.is(transfer!.refundTransactionHash, null);
  const [merchantFee, serviceFee] = request.appFees;
  t.deepEqual(await deliveries(transfer!.destinationTransactionHashes), [
    { to: request.recipient.toLowerCase(), value: 101_000_001n },
    { to: merchantFee!.recipient.toLowerCase(), value: 1_041_237n },
    { to: serviceFee!.recipient.toLowerCase(), value: 2_082_474n },
  ]);
  t.is(transfer!.destinationTransactionHashes.length, 3);
  t.is(await usdcOf(request.recipient), 101_000_001n);
});

test('the local wallet sends many transfers at once, each minted and sent', async (t) => {
  const quote = await provider.openFunding(fundingRequest({ appFees: [] }));
  const sends = await Promise.all(
    Array.from({ length: 6 }, () =>
      post('/_wallet/transfers', { depositAddress: quote.depositAddress, chainId: 1, tokenAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', amount: '2' }),
    ),
  );
  t.deepEqual(
    sends.map((send) => send.status),
    [201, 201, 201, 201, 201, 201],
  );
  await until(quote.requestId, allAre(6, 'delivered'), 'six transfers to be delivered');
});

test('native ETH funding is priced at the local table and delivered', async (t) => {
  const request = fundingRequest({ originChainId: 1, originTokenAddress: NATIVE_TOKEN_ADDRESS, amount: 102_000_000n });
  const quote = await provider.openFunding(request);
  t.is(quote.originDecimals, 18);
  t.is(quote.originAmount, fundingOriginAmount(102_000_000n, usdcPerToken('ETH')!, 18, 10));
  // 102 USDC at 3000 USD per ETH plus 0.1%, rounded up in wei.
  t.is(quote.originAmount, 34_034_000_000_000_000n);
  await walletSend(quote.depositAddress, 1, NATIVE_TOKEN_ADDRESS, formatUnits(quote.originAmount, 18));
  const activity = await until(quote.requestId, allAre(1, 'delivered'), 'the ETH transfer to be delivered');
  t.is(activity.transfers[0]!.originAmount, quote.originAmount);
  t.is(await usdcOf(request.recipient), 102_000_000n - 1_020_000n - 2_040_000n);
});

test('a stand-in stablecoin (BNB Chain USDT, 18 decimals) funding is delivered; local USDC sent to its address is not detected', async (t) => {
  const request = fundingRequest({ originChainId: 56, originTokenAddress: BNB_USDT, amount: 100_000_000n, appFees: [] });
  const quote = await provider.openFunding(request);
  t.is(quote.originDecimals, 18);
  t.is(quote.originAmount, 100_100_000_000_000_000_000n);
  const standIn = simulator.fundingStandIn(56, BNB_USDT);
  t.is(standIn?.kind, 'erc20');
  if (standIn?.kind !== 'erc20') return;
  t.is(standIn.token.decimals, 18);
  t.not(standIn.token.address, chain.usdc);

  await walletSend(quote.depositAddress, 1, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', '100');
  await walletSend(quote.depositAddress, 56, BNB_USDT, '100.1');
  const activity = await until(
    quote.requestId,
    (transfers) => transfers.length > 0 && transfers.every((x) => x.status === 'delivered'),
    'the USDT to be delivered',
  );
  t.is(activity.transfers.length, 1);
  t.is(activity.transfers[0]!.originAmount, 100_100_000_000_000_000_000n);
  t.is(await balanceOf(standIn.token.address, quote.depositAddress as `0x${string}`), 100_100_000_000_000_000_000n);
  t.is(await usdcOf(request.recipient), 100_000_000n);
});

test('a transfer too small to route is refunded in the token sent to the refund address, or to its sender', async (t) => {
  const refundTo = fresh();
  const quote = await provider.openFunding(fundingRequest({ originChainId: 1, originTokenAddress: ETHEREUM_USDT, refundAddress: refundTo }));
  await walletSend(quote.depositAddress, 1, ETHEREUM_USDT, '0.5');
  const refunded = await until(quote.requestId, allAre(1, 'refunded'), 'the refund');
  const usdt = simulator.fundingStandIn(1, ETHEREUM_USDT);
  if (usdt?.kind !== 'erc20') return t.fail('USDT has a stand-in');
  t.regex(refunded.transfers[0]!.refundTransactionHash!, /^0x[0-9a-f]{64}$/);
  t.deepEqual(refunded.transfers[0]!.destinationTransactionHashes, []);
  t.is(await balanceOf(usdt.token.address, refundTo), 500_000n);

  const native = await provider.openFunding(fundingRequest({ originChainId: 10, originTokenAddress: NATIVE_TOKEN_ADDRESS }));
  await walletSend(native.depositAddress, 10, NATIVE_TOKEN_ADDRESS, '0.0001');
  const back = await until(native.requestId, allAre(1, 'refunded'), 'the ETH refund');
  const refund = await chain.publicClient.getTransaction({ hash: back.transfers[0]!.refundTransactionHash as Hash });
  t.is(refund.to?.toLowerCase(), simulator.customer.toLowerCase());
  t.is(refund.value, 100_000_000_000_000n);
});

// Serial, as every test that mines: one mempool serves the whole file.
test.serial('Bitcoin: a transfer is seen in the mempool unswept, swept when mined and delivered; one too small is refunded with a Bitcoin txid', async (t) => {
  const request = fundingRequest({ originChainId: BITCOIN_CHAIN_ID, originTokenAddress: BTC_TOKEN_ADDRESS, refundAddress: REFUND_BTC, amount: 102_000_000n });
  const quote = await provider.openFunding(request);
  t.regex(quote.depositAddress, /^bc1q[02-9ac-hj-np-z]{38}$/);
  t.is(quote.originDecimals, 8);
  // 102 USDC at 60000 USD per BTC plus 0.1%, rounded up in satoshis.
  t.is(quote.originAmount, 170_170n);

  const sent = await post('/_bitcoin/send', { address: quote.depositAddress, amount: formatUnits(quote.originAmount, 8) });
  t.is(sent.status, 201);
  t.regex(sent.body.txid as string, /^[0-9a-f]{64}$/);
  const seen = await provider.activity(quote.requestId);
  t.like(seen.transfers[0], {
    status: 'seen',
    swept: false,
    originAmount: 170_170n,
    startedAt: new Date(NOW).toISOString(),
    sourceTransactionHash: sent.body.txid,
  });
  t.is((await post('/_bitcoin/send', { address: fresh(), amount: '1' })).status, 404);

  const mined = await post('/_bitcoin/mine', {});
  t.deepEqual(mined.body, { swept: 1 });
  const delivered = await until(quote.requestId, allAre(1, 'delivered'), 'the BTC to be delivered');
  t.true(delivered.transfers[0]!.swept);
  t.is(await usdcOf(request.recipient), 102_000_000n - 1_020_000n - 2_040_000n);

  const small = simulator.sendBitcoin(quote.depositAddress, '0.00001');
  t.is((await provider.activity(quote.requestId)).transfers[1]!.status, 'seen');
  t.is(simulator.mineBitcoin(), 1);
  const refunded = await until(quote.requestId, (transfers) => transfers[1]?.status === 'refunded', 'the small BTC transfer to be refunded');
  t.like(refunded.transfers[1], { swept: true, sourceTransactionHash: small.txid, destinationTransactionHashes: [] });
  t.regex(refunded.transfers[1]!.refundTransactionHash!, /^[0-9a-f]{64}$/);
});

test.serial('activity is reported to the callback when a transfer is first seen and when its status changes', async (t) => {
  const reports: Array<{ requestId: string; depositAddress: string }> = [];
  const receiver = await listen((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      reports.push(JSON.parse(body) as { requestId: string; depositAddress: string });
      response.writeHead(204).end();
    });
  });
  t.teardown(() => receiver.close());
  const quote = await provider.openFunding(
    fundingRequest({ originChainId: BITCOIN_CHAIN_ID, originTokenAddress: BTC_TOKEN_ADDRESS, refundAddress: REFUND_BTC }),
  );
  simulator.activityUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/activity`;
  t.teardown(() => (simulator.activityUrl = null));
  const mine = () => reports.filter((report) => report.requestId === quote.requestId);

  simulator.sendBitcoin(quote.depositAddress, '0.01');
  await until(quote.requestId, (transfers) => transfers.length === 1 && mine().length >= 1, 'the first report');
  simulator.mineBitcoin();
  await until(quote.requestId, (transfers) => transfers[0]?.status === 'delivered' && mine().length >= 3, 'a report per status');
  t.deepEqual(mine(), [
    { requestId: quote.requestId, depositAddress: quote.depositAddress },
    { requestId: quote.requestId, depositAddress: quote.depositAddress },
    { requestId: quote.requestId, depositAddress: quote.depositAddress },
  ]);
});

test('the client sends the API key in a header, and takes an outage, a timeout or an answer that is not one as FundingProviderUnavailable', async (t) => {
  const headers: Array<string | undefined> = [];
  let answer: (response: ServerResponse) => void = (response) => response.writeHead(200).end('not json');
  const server = await listen((request, response) => {
    headers.push(request.headers['x-api-key'] as string | undefined);
    answer(response);
  });
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new HttpFundingProvider({ url, timeoutMs: 200, apiKey: 'k-secret-1' });

  const unparsable = await t.throwsAsync(client.openFunding(fundingRequest()), { instanceOf: FundingProviderUnavailable });
  t.deepEqual(headers, ['k-secret-1']);
  t.false(unparsable!.message.includes('k-secret-1'));
  answer = (response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requestId: 'r', depositAddress: 'nowhere' }));
  await t.throwsAsync(client.openFunding(fundingRequest()), { instanceOf: FundingProviderUnavailable });
  answer = (response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ requestId: 'other', depositAddress: fresh(), transfers: [] }));
  await t.throwsAsync(client.activity('mine'), { instanceOf: FundingProviderUnavailable });
  answer = (response) => response.writeHead(404).end('<html>not found</html>');
  await t.throwsAsync(client.activity('r'), { instanceOf: FundingProviderUnavailable });
  answer = (response) => response.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'RATE_LIMITED', message: 'slow down' }));
  await t.throwsAsync(client.openFunding(fundingRequest()), { instanceOf: FundingProviderUnavailable });
  answer = (response) => response.writeHead(503).end();
  await t.throwsAsync(client.openFunding(fundingRequest()), { instanceOf: FundingProviderUnavailable });
  answer = () => {};
  const timedOut = await t.throwsAsync(client.openFunding(fundingRequest()), { instanceOf: FundingProviderUnavailable });
  t.regex(timedOut!.message, /within 200 ms/);

  const closed = await listen(() => {});
  const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  await t.throwsAsync(new HttpFundingProvider({ url: closedUrl, timeoutMs: 1_000 }).openFunding(fundingRequest()), { instanceOf: FundingProviderUnavailable });
});

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
