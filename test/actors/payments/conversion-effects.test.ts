/**
 * The crypto attempt's effects against a provider over HTTP (a small loopback server
 * playing the provider) and a chain reader stand-in: what each provider status tells
 * the payment, a provider outage left to the next poll, a cancel that finds the
 * conversion under way retried, a delivery never believed without the chain, and one
 * delivery transaction never settling two payments.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Hex } from 'viem';
import { EmbeddedStore } from '../../../actors/index.js';
import { HttpConversionProvider } from '../../../actors/adapters/conversion/http-conversion-provider.js';
import { ConversionRefused, DeliveryClaims, paymentEffects, type Delivery, type PaymentEffectDependencies } from '../../../actors/payments/index.js';
import { recordingEffectContext } from '../../support/effect-context.js';
import { LIVE_CHAIN } from '../../support/payment-input.js';

const DELIVERY = '0xd0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0';
const RECIPIENT: Hex = '0x1111111111111111111111111111111111111111';

/** A provider whose answers the test sets per request id; `status` 503 plays an outage. */
async function provider(t: { teardown(fn: () => void): void }) {
  const states = new Map<string, { status: number; body: unknown }>();
  const server: Server = createServer((request, response) => {
    const id = decodeURIComponent(request.url!.split('/')[2] ?? '');
    const answer = states.get(id) ?? { status: 404, body: { code: 'REQUEST_NOT_FOUND', message: `no request ${id}` } };
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state = (id: string, status: string, hashes: string[] = []) =>
    states.set(id, {
      status: 200,
      body: {
        requestId: id,
        status,
        originAmountReceived: status === 'waiting' ? null : '25025000',
        sourceTransactionHash: null,
        destinationTransactionHashes: hashes,
        message: null,
      },
    });
  return { url, states, state, client: new HttpConversionProvider({ url, timeoutMs: 1_000 }) };
}

function effectsWith(client: HttpConversionProvider, claims: DeliveryClaims, delivered: Delivery | null) {
  const deps = { conversions: client, deliveries: { delivered: async () => delivered }, claims } as unknown as PaymentEffectDependencies;
  return paymentEffects(deps);
}

const contextFor = (paymentId: string) => recordingEffectContext('payment', paymentId, { turn: 3, at: 0 });

const params = (paymentId: string, requestId: string, received = false) => ({
  paymentId,
  requestId,
  received,
  recipient: RECIPIENT,
  feeRecipient: null,
  chain: LIVE_CHAIN,
});

test('each provider status tells the payment what it means; waiting and an outage tell it nothing', async (t) => {
  const { client, state, states } = await provider(t);
  const effects = effectsWith(client, await DeliveryClaims.open(new EmbeddedStore()), { transactionHash: DELIVERY, netUsdc: 24_875_000n, feeUsdc: 125_000n });
  const check = async (requestId: string, received = false) => {
    const { context, reports } = contextFor(`pay_${requestId}`);
    await effects.checkTransfer!(params(`pay_${requestId}`, requestId, received), context);
    return reports.map((report) => report.type);
  };
  state('waiting', 'waiting');
  t.deepEqual(await check('waiting'), []);
  state('pending', 'pending');
  t.deepEqual(await check('pending'), ['TRANSFER_RECEIVED']);
  // Once the payment knows, the same status is not told again.
  t.deepEqual(await check('pending', true), []);
  state('success', 'success', [DELIVERY]);
  t.deepEqual(await check('success'), ['TRANSFER_DELIVERED']);
  state('refund', 'refund');
  t.deepEqual(await check('refund'), ['TRANSFER_FAILED']);
  states.set('down', { status: 503, body: { message: 'unavailable' } });
  t.deepEqual(await check('down'), []);
});

test('a delivery the chain does not show is read again (the effect throws), never believed', async (t) => {
  const { client, state } = await provider(t);
  const effects = effectsWith(client, await DeliveryClaims.open(new EmbeddedStore()), null);
  state('req', 'success', [DELIVERY]);
  const { context, reports } = contextFor('pay_a');
  await t.throwsAsync(() => effects.checkTransfer!(params('pay_a', 'req'), context), { message: /no USDC reached/ });
  t.deepEqual(reports, []);
});

test('one delivery transaction settles one payment: a second request naming it fails, the first asking again still settles', async (t) => {
  const { client, state } = await provider(t);
  const effects = effectsWith(client, await DeliveryClaims.open(new EmbeddedStore()), { transactionHash: DELIVERY, netUsdc: 24_875_000n, feeUsdc: 125_000n });
  state('req_a', 'success', [DELIVERY]);
  state('req_b', 'success', [DELIVERY]);
  const a = contextFor('pay_a');
  await effects.checkTransfer!(params('pay_a', 'req_a'), a.context);
  const b = contextFor('pay_b');
  await effects.checkTransfer!(params('pay_b', 'req_b'), b.context);
  const again = contextFor('pay_a');
  await effects.checkTransfer!(params('pay_a', 'req_a'), again.context);
  t.like(a.reports[0], { type: 'TRANSFER_DELIVERED', transactionHash: DELIVERY, netUsdc: '24875000', feeUsdc: '125000' });
  t.like(b.reports[0], { type: 'TRANSFER_FAILED', status: 'FAILED' });
  t.regex(String(b.reports[0]!.message), /settled another payment/);
  t.like(again.reports[0], { type: 'TRANSFER_DELIVERED' });
});

test('cancelling a request the provider is still converting is retried; delivered first, it settles the ended attempt; waiting, it ends quietly', async (t) => {
  const { client, states } = await provider(t);
  const effects = effectsWith(client, await DeliveryClaims.open(new EmbeddedStore()), { transactionHash: DELIVERY, netUsdc: 1n, feeUsdc: 0n });
  const cancelled = (id: string, status: string, hashes: string[] = []) =>
    states.set(id, {
      status: 200,
      body: {
        requestId: id,
        status,
        originAmountReceived: status === 'failure' ? null : '1',
        sourceTransactionHash: null,
        destinationTransactionHashes: hashes,
        message: null,
      },
    });
  cancelled('converting', 'pending');
  await t.throwsAsync(() => effects.cancelTransfer!(params('pay_c', 'converting'), contextFor('pay_c').context), { message: /still converting/ });
  cancelled('done', 'success', [DELIVERY]);
  const late = contextFor('pay_d');
  await effects.cancelTransfer!(params('pay_d', 'done'), late.context);
  t.deepEqual(
    late.reports.map((report) => report.type),
    ['TRANSFER_DELIVERED'],
  );
  cancelled('idle', 'failure');
  const idle = contextFor('pay_e');
  await effects.cancelTransfer!(params('pay_e', 'idle'), idle.context);
  t.deepEqual(idle.reports, []);
});

test('the HTTP client: a 4xx is the provider refusing (its code kept), a 5xx an outage, an answer of the wrong shape an error', async (t) => {
  const { client, states } = await provider(t);
  states.set('refused', { status: 400, body: { code: 'UNSUPPORTED_TOKEN', message: 'not DOGE' } });
  const refused = await t.throwsAsync(() => client.status('refused'));
  t.true(refused instanceof ConversionRefused);
  t.is((refused as ConversionRefused).code, 'UNSUPPORTED_TOKEN');
  states.set('down', { status: 502, body: {} });
  const down = await t.throwsAsync(() => client.status('down'));
  t.false(down instanceof ConversionRefused);
  states.set('odd', { status: 200, body: { requestId: 'odd', status: 'teleported' } });
  await t.throwsAsync(() => client.status('odd'));
});
