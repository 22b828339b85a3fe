/**
 * Document 1's rules about orders that issue 12's changes touch and no other test
 * pins: the search's length and trimming, the idempotency key's pattern, the hosted
 * range once an order has ended, replays judged with Solana's case-sensitive
 * addresses, chain ids as numbers, and the catalog in the served description.
 */
import test from 'ava';
import { withMerchant } from '../support/gateway.js';

const SOLANA = 792703809;
const SOLANA_WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

test('search: three characters apply, surrounding spaces are trimmed, and under three after trimming is ignored', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const create = (notes: Record<string, string>) => gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', notes } });
    const grace = (await create({ name: 'Grace Hopper' })).body.responseObject.order.id;
    await create({ name: 'Ada Lovelace' });
    const ids = async (query: string) => {
      const list = await gateway.request('GET', `/api/v1/merchants/me/orders?${query}`, { key: liveKey });
      return list.body.responseObject.orders.map((order: { id: string }) => order.id);
    };
    t.deepEqual(await ids('search=hop'), [grace]);
    t.deepEqual(await ids('search=%20%20hop%20'), [grace]);
    t.is((await ids('search=%20ho%20')).length, 2);
  }));

test('idempotencyKey: 8 to 128 letters, digits, underscores or hyphens', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const create = (idempotencyKey: string) => gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', idempotencyKey } });
    t.is((await create('k'.repeat(128))).status, 201);
    t.is((await create('Ab_-0123')).status, 201);
    for (const refused of ['k'.repeat(129), 'short', 'bad key!', 'ключ-ключ']) {
      const answer = await create(refused);
      t.is(answer.status, 400, refused);
      t.truthy(answer.body.responseObject.fieldErrors.idempotencyKey, refused);
    }
  }));

test('the hosted range of an open order is null once it is cancelled', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const order = (
      await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { openAmount: { currency: 'EUR', minAmount: '5', maxAmount: '50' } } })
    ).body.responseObject.order;
    await gateway.node.system.askAt({ kind: 'order', id: order.id }, { type: 'CANCEL', at: '2026-11-23T13:00:00.000Z' });
    const hosted = (await gateway.request('GET', `/api/v1/orders/${order.id}`)).body.responseObject.order;
    t.is(hosted.status, 'CANCELLED');
    t.like(hosted.openAmount, { minAmount: '5.00', maxAmount: '50.00', effectiveMin: null, effectiveMax: null });
  }));

test('a replay whose Solana address differs only in letter case is another request: 422 IDEMPOTENCY_KEY_MISMATCH', (t) =>
  withMerchant(async (gateway, { sandboxKey }) => {
    const body = (destinationAddress: string) => ({
      requestedUsdcAmount: '1',
      destinationChainId: SOLANA,
      destinationToken: 'usdc',
      destinationAddress,
      idempotencyKey: 'solana-case-1',
    });
    const first = await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: body(SOLANA_WALLET) });
    t.is(first.status, 201);
    t.is(first.body.responseObject.order.destinationChainId, String(SOLANA));
    t.is((await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: body(SOLANA_WALLET) })).status, 200);
    const swapped = SOLANA_WALLET.replace('x', 'X');
    const other = await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: body(swapped) });
    t.is(other.status, 422);
    t.is(other.body.errorCode, 'IDEMPOTENCY_KEY_MISMATCH');
  }));

test('destinationChainId is a JSON number: the string "8453" is refused naming the field', (t) =>
  withMerchant(async (gateway, { liveKey }) => {
    const answer = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', destinationChainId: '8453' } });
    t.is(answer.status, 400);
    t.truthy(answer.body.responseObject.fieldErrors.destinationChainId);
  }));

test('the served description lists the catalog’s chains for destinationChainId, Solana included', (t) =>
  withMerchant(async (gateway) => {
    const document = (await gateway.request('GET', '/api/v1/openapi.json')).body as unknown as { components: { schemas: Record<string, any> } };
    const description = String(document.components.schemas.CreateOrderRequest.properties.destinationChainId.description);
    for (const chain of ['8453 (Base)', '1 (Ethereum)', '42161 (Arbitrum)', `${SOLANA} (Solana)`]) t.true(description.includes(chain), chain);
  }));
