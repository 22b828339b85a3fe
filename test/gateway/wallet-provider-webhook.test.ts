/**
 * POST /v2/webhooks/walletprovider through HTTP: the signature (Standard Webhooks, svix-*
 * or webhook-*) judged against the node's test clock, message ids claimed with their
 * body, canonical USDC transfers stored once and read back with listTransfers, and
 * every refusal changing nothing.
 */
import test from 'ava';
import { loadConfig } from '../../actors/config.js';
import { listTransfers } from '../../actors/wallet-transfers/index.js';
import { withGateway, type ApiResponse, type TestGateway } from '../support/gateway.js';
import { WALLET_PROVIDER_SECRET, providerHeaders, type ProviderSignature } from '../support/wallet-provider.js';

const PATH = '/v2/webhooks/walletprovider';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const SENDER = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const RECIPIENT = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F';
const TX = '0x2446F1FD773FBB9F080E674B60C6A033C7ED7427B8B9413CF28A2A4A6DA9B56C';
const OTHER_SECRET = 'whsec_b3RoZXItd2FsbGV0LXByb3ZpZGVyLXNlY3JldCE=';

function deposit(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'wallet.funds_deposited',
    wallet_id: 'fmfdj6yqly31huorjqzq38zc',
    idempotency_key: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890',
    caip2: 'eip155:8453',
    asset: { type: 'erc20', address: BASE_USDC },
    amount: '0025000000',
    transaction_hash: TX,
    sender: SENDER,
    recipient: RECIPIENT,
    block: { number: 19832451 },
    ...overrides,
  };
}

function nowSeconds(gateway: TestGateway): number {
  return Math.floor(gateway.clock.now() / 1000);
}

/** Sends `body` (an object as JSON, a string as is) signed as the provider would, unless `headers` replaces the signature. */
async function send(
  gateway: TestGateway,
  body: unknown,
  signature: Partial<ProviderSignature> & { id: string },
  headers?: Record<string, string>,
): Promise<ApiResponse> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const signed = headers ?? providerHeaders({ timestamp: nowSeconds(gateway), body: text, ...signature });
  return gateway.request('POST', PATH, { body: text, headers: signed });
}

/** Everything this route can write, to show a refusal wrote none of it. */
async function stored(gateway: TestGateway): Promise<string> {
  const { system } = gateway.node;
  const [transfers, messages] = await Promise.all([
    system.documents('wallet-transfer').find({}, { sort: { _id: 1 } }),
    system.documents('provider-message').find({}, { sort: { _id: 1 } }),
  ]);
  return JSON.stringify([transfers, messages]);
}

async function transferCount(gateway: TestGateway): Promise<number> {
  return gateway.node.system.documents('wallet-transfer').count({});
}

function accepted(t: import('ava').ExecutionContext, response: ApiResponse): void {
  t.is(response.status, 202, JSON.stringify(response.body));
  t.true(response.body.success);
  t.deepEqual(response.body.responseObject, {});
  t.is(response.body.statusCode, 202);
}

function refused(t: import('ava').ExecutionContext, response: ApiResponse, status: number, errorCode: string | undefined): void {
  t.is(response.status, status, JSON.stringify(response.body));
  t.false(response.body.success);
  t.is(response.body.errorCode, errorCode);
}

test('a signed USDC deposit is stored in canonical form and read back from both wallets', (t) =>
  withGateway(async (gateway) => {
    accepted(t, await send(gateway, deposit(), { id: 'msg_first' }));
    t.is(await transferCount(gateway), 1);

    const [row] = await listTransfers(gateway.node.system, RECIPIENT);
    t.like(row, {
      chainId: 8453,
      txHash: TX.toLowerCase(),
      logIndex: null,
      token: BASE_USDC.toLowerCase(),
      from: SENDER.toLowerCase(),
      to: RECIPIENT.toLowerCase(),
      amount: '25000000',
      blockNumber: 19832451,
      reportedAt: new Date(nowSeconds(gateway) * 1000).toISOString(),
      direction: 'DEPOSIT',
    });
    t.like((await listTransfers(gateway.node.system, SENDER.toUpperCase().replace('0X', '0x')))[0], { id: row!.id, direction: 'SEND' });
    t.deepEqual(await listTransfers(gateway.node.system, RECIPIENT, { chainId: 1 }), []);
    t.is((await listTransfers(gateway.node.system, RECIPIENT, { token: BASE_USDC.toUpperCase().replace('0X', '0x') })).length, 1);
    t.deepEqual(await listTransfers(gateway.node.system, '0x0000000000000000000000000000000000000001'), []);
    await t.throwsAsync(() => listTransfers(gateway.node.system, 'not-a-wallet'), { instanceOf: TypeError });
  }));

test('the same message again is answered 202 and stores nothing twice', (t) =>
  withGateway(async (gateway) => {
    accepted(t, await send(gateway, deposit(), { id: 'msg_again' }));
    const before = await stored(gateway);
    const again = await send(gateway, deposit(), { id: 'msg_again' });
    accepted(t, again);
    t.is(again.body.message, 'Accepted: the transfer was stored before');
    t.is(await stored(gateway), before);
  }));

test('the same transfer in two messages (the recipient’s deposit and the sender’s withdrawal) is stored once', (t) =>
  withGateway(async (gateway) => {
    accepted(t, await send(gateway, deposit(), { id: 'msg_deposit' }));
    const withdrawal = deposit({
      type: 'wallet.funds_withdrawn',
      wallet_id: 'sender-wallet',
      idempotency_key: 'another-key',
      transaction_hash: TX.toLowerCase(),
      sender: SENDER.toLowerCase(),
      amount: '25000000',
    });
    const second = await send(gateway, withdrawal, { id: 'msg_withdrawal' });
    accepted(t, second);
    t.is(second.body.message, 'Accepted: the transfer was stored before');
    t.is(await transferCount(gateway), 1);
    t.is(await gateway.node.system.documents('provider-message').count({}), 2);
  }));

test('with a log index, transfers are identified by (chainId, txHash, logIndex): two in one transaction are two, one reported twice is one', (t) =>
  withGateway(async (gateway) => {
    accepted(t, await send(gateway, deposit({ log_index: 7 }), { id: 'msg_log_7' }));
    accepted(t, await send(gateway, deposit({ log_index: 8 }), { id: 'msg_log_8' }));
    accepted(t, await send(gateway, deposit({ log_index: 7, wallet_id: 'other' }), { id: 'msg_log_7_again' }));
    t.deepEqual(
      (await listTransfers(gateway.node.system, RECIPIENT)).map((row) => row.logIndex),
      [8, 7],
    );
  }));

test('another report under a stored transfer’s identity that differs is acknowledged, and the first stands', (t) =>
  withGateway(async (gateway) => {
    accepted(t, await send(gateway, deposit(), { id: 'msg_original' }));
    const [before] = await listTransfers(gateway.node.system, RECIPIENT);
    const conflicting = await send(gateway, deposit({ block: { number: 19832452 } }), { id: 'msg_conflicting' });
    accepted(t, conflicting);
    t.regex(conflicting.body.message, /differs/);
    t.deepEqual(await listTransfers(gateway.node.system, RECIPIENT), [before]);
  }));

test('another body under a message id already accepted is refused 409 and stores nothing', (t) =>
  withGateway(async (gateway) => {
    accepted(t, await send(gateway, deposit(), { id: 'msg_reused' }));
    const before = await stored(gateway);
    refused(t, await send(gateway, deposit({ amount: '1', transaction_hash: `0x${'ab'.repeat(32)}` }), { id: 'msg_reused' }), 409, 'MESSAGE_ID_REUSED');
    t.is(await stored(gateway), before);
  }));

test('a bad signature is refused 401 SIGNATURE_INVALID and changes nothing', (t) =>
  withGateway(async (gateway) => {
    const body = JSON.stringify(deposit());
    const timestamp = nowSeconds(gateway);
    const good = providerHeaders({ id: 'msg_bad', timestamp, body });
    const cases: Record<string, Record<string, string>> = {
      'another secret': providerHeaders({ id: 'msg_bad', timestamp, body, secret: OTHER_SECRET }),
      'a tampered body': providerHeaders({ id: 'msg_bad', timestamp, body: body.replace('0025000000', '9925000000') }),
      'another id': { ...good, 'svix-id': 'msg_other' },
      'another timestamp': { ...good, 'svix-timestamp': String(timestamp - 1) },
      'an unknown version': { ...good, 'svix-signature': good['svix-signature']!.replace('v1,', 'v2,') },
      garbage: { ...good, 'svix-signature': 'v1,not-a-signature' },
      'a timestamp that is not whole seconds': { ...good, 'svix-timestamp': `${timestamp}.0` },
      'an id with a space': { ...good, 'svix-id': 'msg bad' },
    };
    const before = await stored(gateway);
    for (const [name, headers] of Object.entries(cases)) {
      const response = await send(gateway, body, { id: 'msg_bad' }, headers);
      refused(t, response, 401, 'SIGNATURE_INVALID');
      t.is(response.body.responseObject, null, name);
    }
    t.is(await stored(gateway), before);
    accepted(t, await send(gateway, body, { id: 'msg_bad' }, good));
  }));

test('a missing signature header is refused 401 SIGNATURE_MISSING', (t) =>
  withGateway(async (gateway) => {
    const body = JSON.stringify(deposit());
    const good = providerHeaders({ id: 'msg_missing', timestamp: nowSeconds(gateway), body });
    const before = await stored(gateway);
    refused(t, await send(gateway, body, { id: 'msg_missing' }, {}), 401, 'SIGNATURE_MISSING');
    for (const name of Object.keys(good)) {
      const headers = { ...good };
      delete headers[name];
      refused(t, await send(gateway, body, { id: 'msg_missing' }, headers), 401, 'SIGNATURE_MISSING');
    }
    // A webhook-id makes the webhook-* family the one read, and its other two are then missing.
    refused(t, await send(gateway, body, { id: 'msg_missing' }, { ...good, 'webhook-id': 'msg_missing' }), 401, 'SIGNATURE_MISSING');
    t.is(await stored(gateway), before);
  }));

test('the Standard Webhooks spelling (webhook-*) is accepted as svix-* is', (t) =>
  withGateway(async (gateway) => {
    accepted(t, await send(gateway, deposit(), { id: 'msg_standard', family: 'webhook' }));
    t.is(await transferCount(gateway), 1);
  }));

test('a timestamp more than five minutes from the node’s clock, either way, is refused 401 TIMESTAMP_OUT_OF_TOLERANCE', (t) =>
  withGateway(async (gateway) => {
    const before = await stored(gateway);
    const signedAt = nowSeconds(gateway);
    const body = JSON.stringify(deposit());
    const headers = providerHeaders({ id: 'msg_late', timestamp: signedAt, body });
    await gateway.clock.advance(301_000);
    refused(t, await send(gateway, body, { id: 'msg_late' }, headers), 401, 'TIMESTAMP_OUT_OF_TOLERANCE');
    refused(t, await send(gateway, body, { id: 'msg_early', timestamp: nowSeconds(gateway) + 301 }), 401, 'TIMESTAMP_OUT_OF_TOLERANCE');
    t.is(await stored(gateway), before);
    // The edges of the window are inside it.
    accepted(t, await send(gateway, body, { id: 'msg_edge_past', timestamp: nowSeconds(gateway) - 300 }));
    accepted(t, await send(gateway, body, { id: 'msg_edge_future', timestamp: nowSeconds(gateway) + 300 }));
  }));

test('a body that is not a JSON object is refused 400 in the validation shape, and changes nothing', (t) =>
  withGateway(async (gateway) => {
    const before = await stored(gateway);
    for (const body of ['not json', '{"type":', '"text"', '42']) {
      const response = await send(gateway, body, { id: 'msg_not_json' });
      refused(t, response, 400, undefined);
      t.deepEqual(response.body.responseObject, { fieldErrors: {}, formErrors: ['Malformed JSON body'] }, body);
    }
    // Signed, and still not an object.
    for (const body of ['[]', '[{"type":"wallet.funds_deposited"}]']) {
      const response = await send(gateway, body, { id: 'msg_array' });
      refused(t, response, 400, undefined);
      t.true(response.body.responseObject.formErrors.length > 0, body);
    }
    const empty = await gateway.request('POST', PATH, { headers: providerHeaders({ id: 'msg_empty', timestamp: nowSeconds(gateway), body: '' }) });
    refused(t, empty, 400, undefined);
    t.deepEqual(empty.body.responseObject, { fieldErrors: {}, formErrors: ['The body must be a JSON object'] });
    t.is(await stored(gateway), before);
  }));

test('a balance event on an EVM chain with a malformed field is refused 400 naming it', (t) =>
  withGateway(async (gateway) => {
    const before = await stored(gateway);
    const cases: Array<[Record<string, unknown>, string]> = [
      [deposit({ amount: '25.5' }), 'amount'],
      [deposit({ amount: (1n << 256n).toString() }), 'amount'],
      [deposit({ transaction_hash: '0x1234' }), 'transaction_hash'],
      [deposit({ sender: 'alice' }), 'sender'],
      [deposit({ caip2: 'eip155:base' }), 'caip2'],
      [deposit({ block: { number: -1 } }), 'block'],
      [deposit({ block: undefined }), 'block'],
      [deposit({ log_index: 1.5 }), 'log_index'],
    ];
    for (const [index, [body, field]] of cases.entries()) {
      const response = await send(gateway, body, { id: `msg_malformed_${index}` });
      refused(t, response, 400, undefined);
      t.truthy(response.body.responseObject.fieldErrors[field], `${field}: ${JSON.stringify(response.body.responseObject)}`);
    }
    t.is(await stored(gateway), before);
  }));

test('other objects, other tokens and other chains are acknowledged and ignored', (t) =>
  withGateway(async (gateway) => {
    const ignored: Array<[string, Record<string, unknown>]> = [
      ['another event type', { type: 'user.created', user: { id: 'did:example:1' } }],
      ['an object without a type', { hello: 'world' }],
      ['a native token', deposit({ asset: { type: 'native-token', address: null }, amount: '1000000000000000000' })],
      ['another ERC-20 token', deposit({ asset: { type: 'erc20', address: '0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb' } })],
      ['USDC of another chain on Base', deposit({ asset: { type: 'erc20', address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' } })],
      ['a chain outside the catalog', deposit({ caip2: 'eip155:84532' })],
      ['a zero amount', deposit({ amount: '0' })],
      ['a Solana event', deposit({ caip2: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', sender: 'not-evm', transaction_hash: 'base58' })],
    ];
    for (const [index, [name, body]] of ignored.entries()) {
      const response = await send(gateway, body, { id: `msg_ignored_${index}` });
      accepted(t, response);
      t.regex(response.body.message, /^Accepted and ignored: /, name);
    }
    t.is(await transferCount(gateway), 0);
    // Each was still a message: its id is taken.
    refused(t, await send(gateway, { type: 'user.created', user: { id: 'did:example:2' } }, { id: 'msg_ignored_0' }), 409, 'MESSAGE_ID_REUSED');
  }));

test('the body limit applies before the signature is looked at', (t) =>
  withGateway(async (gateway) => {
    const body = JSON.stringify({ ...deposit(), pad: 'x'.repeat(gateway.node.config.BODY_LIMIT_BYTES) });
    refused(t, await send(gateway, body, { id: 'msg_large' }), 413, 'PAYLOAD_TOO_LARGE');
    t.is(await transferCount(gateway), 0);
  }));

test('without WALLET_PROVIDER_WEBHOOK_SECRET the route answers 503 WEBHOOK_NOT_CONFIGURED and reads nothing', (t) =>
  withGateway(
    async (gateway) => {
      const response = await send(gateway, deposit(), { id: 'msg_unconfigured' });
      refused(t, response, 503, 'WEBHOOK_NOT_CONFIGURED');
      t.is(await transferCount(gateway), 0);
      refused(t, await send(gateway, 'not json', { id: 'msg_unconfigured' }), 503, 'WEBHOOK_NOT_CONFIGURED');
    },
    { WALLET_PROVIDER_WEBHOOK_SECRET: undefined },
  ));

test('during a rotation either secret verifies, as does a header carrying both signatures; a third does not', (t) =>
  withGateway(
    async (gateway) => {
      accepted(t, await send(gateway, deposit({ log_index: 1 }), { id: 'msg_new', secret: OTHER_SECRET }));
      accepted(t, await send(gateway, deposit({ log_index: 2 }), { id: 'msg_old', secret: WALLET_PROVIDER_SECRET }));
      const body = JSON.stringify(deposit({ log_index: 3 }));
      const timestamp = nowSeconds(gateway);
      const [bothNew, bothOld] = [OTHER_SECRET, WALLET_PROVIDER_SECRET].map((secret) => providerHeaders({ id: 'msg_both', timestamp, body, secret }));
      accepted(
        t,
        await send(gateway, body, { id: 'msg_both' }, { ...bothNew!, 'svix-signature': `${bothNew!['svix-signature']} ${bothOld!['svix-signature']}` }),
      );
      const third = 'whsec_dGhpcmQtd2FsbGV0LXByb3ZpZGVyLXNlY3JldCE=';
      refused(t, await send(gateway, deposit({ log_index: 4 }), { id: 'msg_third', secret: third }), 401, 'SIGNATURE_INVALID');
      t.is(await transferCount(gateway), 3);
    },
    { WALLET_PROVIDER_WEBHOOK_SECRET: [OTHER_SECRET, WALLET_PROVIDER_SECRET] },
  ));

test('WALLET_PROVIDER_WEBHOOK_SECRET is checked at load and named, never echoed', (t) => {
  t.deepEqual(loadConfig({ WALLET_PROVIDER_WEBHOOK_SECRET: ` ${OTHER_SECRET} , ${WALLET_PROVIDER_SECRET}` }).WALLET_PROVIDER_WEBHOOK_SECRET, [
    OTHER_SECRET,
    WALLET_PROVIDER_SECRET,
  ]);
  t.is(loadConfig({}).WALLET_PROVIDER_WEBHOOK_SECRET, undefined);
  for (const value of [
    'whsec_c2hvcnQ=',
    'not-a-secret-at-all-but-long-enough',
    `${WALLET_PROVIDER_SECRET},${OTHER_SECRET},${WALLET_PROVIDER_SECRET}`,
    'whsec_!!!!dGVzdC13YWxsZXQtcHJvdmlkZXItc2VjcmV0',
  ]) {
    const error = t.throws(() => loadConfig({ WALLET_PROVIDER_WEBHOOK_SECRET: value }));
    t.regex(error!.message, /WALLET_PROVIDER_WEBHOOK_SECRET/);
    t.false(error!.message.includes(value.split(',')[0]!.slice(6)), 'the secret is not in the message');
  }
});
