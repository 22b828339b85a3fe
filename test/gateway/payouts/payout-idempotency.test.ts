/**
 * Document 2's Idempotency-Key table for POST /api/v1/payouts: malformed keys, a new key,
 * a replay, a conflict, a request still running, validation ahead of the key, the bodies
 * that are the same request (rail order, e-mail case, no rails), and a retry with the same
 * key after a provider fault.
 */
import test from 'ava';
import { USDC_ON_BASE, payoutBody } from '../../support/payout-fakes.js';
import { newKey, payoutWorld } from './payout-world.js';

test('a missing or malformed Idempotency-Key is 400 INVALID_IDEMPOTENCY_KEY; 8 and 128 characters of letters, digits, _ and - are taken', async (t) => {
  const world = await payoutWorld(t);
  for (const [what, key] of [
    ['missing', null],
    ['7 characters', 'abcdefg'],
    ['129 characters', 'k'.repeat(129)],
    ['a space', 'key with-space'],
    ['a dot', 'key.with_dot'],
    ['another symbol', 'key+plus-sign'],
  ] as const) {
    const answer = await world.create(payoutBody(), key);
    t.is(answer.status, 400, what);
    t.is(answer.body.errorCode, 'INVALID_IDEMPOTENCY_KEY', what);
  }
  t.is((await world.create(payoutBody(), 'Ab3_-xyz')).status, 201, '8 characters');
  t.is((await world.create(payoutBody(), `${'A1_-'.repeat(32)}`)).status, 201, '128 characters');
});

test('a new key is 201; the same key and body 200 with idempotentReplay and the payout as it is now; another body 409 IDEMPOTENCY_KEY_CONFLICT', async (t) => {
  const world = await payoutWorld(t);
  const key = newKey();
  const first = await world.create(payoutBody(), key);
  t.is(first.status, 201);
  t.is(first.body.message, 'Payout created');
  t.false(first.body.responseObject.idempotentReplay);
  const payoutId = first.body.responseObject.payoutId;

  const replay = await world.create(payoutBody(), key);
  t.is(replay.status, 200);
  t.true(replay.body.responseObject.idempotentReplay);
  t.is(replay.body.responseObject.payoutId, payoutId);
  t.is(replay.body.responseObject.checkoutUrl, first.body.responseObject.checkoutUrl);
  t.is(world.funding.requests.size, 1, 'a replay opens no second deposit address');

  t.is((await world.cancel(payoutId)).status, 200);
  const afterCancel = await world.create(payoutBody(), key);
  t.is(afterCancel.status, 200);
  t.like(afterCancel.body.responseObject, { payoutId, status: 'CANCELLED', idempotentReplay: true, funding: { depositAddress: null } });
  t.truthy(afterCancel.body.responseObject.checkoutUrl);

  for (const other of [
    payoutBody({ payout: { amount: '200', chainId: 8453, tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } }),
    payoutBody({ customerEmail: 'bob@example.com' }),
    payoutBody({ merchantReference: 'inv-1' }),
    payoutBody({ rails: ['venmo'] }),
  ]) {
    const conflict = await world.create(other, key);
    t.is(conflict.status, 409);
    t.is(conflict.body.errorCode, 'IDEMPOTENCY_KEY_CONFLICT');
  }
});

test('two concurrent requests with one key while the first is running: one 201, one 409 IDEMPOTENCY_REQUEST_IN_PROGRESS', async (t) => {
  const world = await payoutWorld(t);
  let release!: () => void;
  world.funding.hold = new Promise<void>((resolve) => (release = resolve));
  const key = newKey();
  const settled: number[] = [];
  const requests = [world.create(payoutBody(), key), world.create(payoutBody(), key)].map((request) =>
    request.then((answer) => {
      settled.push(answer.status);
      return answer;
    }),
  );
  // The one that finds the other running answers while the provider is held.
  for (let round = 0; round < 500 && settled.length === 0; round++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.deepEqual(settled, [409], 'one answers while the other is still preparing');
  world.funding.hold = null;
  release();
  const answers = await Promise.all(requests);
  t.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409]);
  const running = answers.find((answer) => answer.status === 409)!;
  t.is(running.body.errorCode, 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
  const made = answers.find((answer) => answer.status === 201)!;
  const again = await world.create(payoutBody(), key);
  t.is(again.status, 200, 'once it is done, the key replays');
  t.is(again.body.responseObject.payoutId, made.body.responseObject.payoutId);
  t.is(world.funding.requests.size, 1);
});

test('a body failing validation is the validation 400 even with a malformed or missing key: the body is checked first', async (t) => {
  const world = await payoutWorld(t);
  for (const key of ['bad', null, 'has.dot.key']) {
    const answer = await world.create(payoutBody({ unknownField: true }), key);
    t.is(answer.status, 400);
    t.is(answer.body.message, 'Invalid request');
    t.is(answer.body.errorCode, undefined);
    t.truthy(answer.body.responseObject.formErrors);
  }
});

test('reordered rails, e-mail case and a request without rails are the same request: each replays', async (t) => {
  const world = await payoutWorld(t);
  const railsKey = newKey();
  t.is((await world.create(payoutBody({ rails: ['zelle', 'venmo'] }), railsKey)).status, 201);
  const reordered = await world.create(payoutBody({ rails: ['venmo', 'zelle'] }), railsKey);
  t.is(reordered.status, 200);
  t.true(reordered.body.responseObject.idempotentReplay);
  t.is((await world.create(payoutBody({ rails: ['venmo'] }), railsKey)).body.errorCode, 'IDEMPOTENCY_KEY_CONFLICT', 'different rails conflict');

  const plainKey = newKey();
  t.is((await world.create(payoutBody(), plainKey)).status, 201);
  const plain = await world.create(payoutBody(), plainKey);
  t.is(plain.status, 200, 'a request without rails replays');
  t.true(plain.body.responseObject.idempotentReplay);

  const amountKey = newKey();
  t.is((await world.create(payoutBody({ customerEmail: 'amount@example.com' }), amountKey)).status, 201);
  const sameAmount = payoutBody({
    customerEmail: 'amount@example.com',
    payout: { amount: '100.000000', chainId: 8453, tokenAddress: USDC_ON_BASE.toLowerCase() },
  });
  t.is((await world.create(sameAmount, amountKey)).status, 200, 'the same amount and token, written differently');

  const emailKey = newKey();
  t.is((await world.create(payoutBody({ customerEmail: 'Mixed.Case@Example.COM' }), emailKey)).status, 201);
  const lower = await world.create(payoutBody({ customerEmail: 'mixed.case@example.com' }), emailKey);
  t.is(lower.status, 200);
  t.true(lower.body.responseObject.idempotentReplay);
});

test('after a 502 the same key, once the fault clears, creates the payout (201)', async (t) => {
  const world = await payoutWorld(t);
  world.wallets.failing = true;
  const walletKey = newKey();
  const walletDown = await world.create(payoutBody(), walletKey);
  t.is(walletDown.status, 502);
  t.is(walletDown.body.errorCode, 'PAYOUT_EMBEDDED_WALLET_FAILED');
  t.is((await world.list()).body.responseObject.total, 0, 'a payout that failed to prepare is not listed');
  t.is((await world.create(payoutBody(), walletKey)).body.errorCode, 'PAYOUT_EMBEDDED_WALLET_FAILED', 'a retry while the fault lasts fails alike');
  world.wallets.failing = false;
  const walletRetry = await world.create(payoutBody(), walletKey);
  t.is(walletRetry.status, 201);
  t.false(walletRetry.body.responseObject.idempotentReplay);

  world.funding.refuseQuotes('OUTAGE');
  const quoteKey = newKey();
  const quoteDown = await world.create(payoutBody({ customerEmail: 'other@example.com' }), quoteKey);
  t.is(quoteDown.status, 502);
  t.is(quoteDown.body.errorCode, 'PAYOUT_BRIDGE_QUOTE_FAILED');
  world.funding.refuseQuotes(null);
  const quoteRetry = await world.create(payoutBody({ customerEmail: 'other@example.com' }), quoteKey);
  t.is(quoteRetry.status, 201);
  t.is((await world.create(payoutBody({ customerEmail: 'other@example.com' }), quoteKey)).status, 200);
  t.is((await world.list()).body.responseObject.total, 2);
});

test('twenty concurrent requests with one key make one payout and one deposit address: one 201, the rest in progress or replays of it', async (t) => {
  const world = await payoutWorld(t);
  const key = newKey();
  const answers = await Promise.all(Array.from({ length: 20 }, () => world.create(payoutBody(), key)));
  const statuses = answers.map((answer) => answer.status);
  t.is(statuses.filter((status) => status === 201).length, 1, statuses.join(','));
  t.true(
    statuses.every((status) => status === 201 || status === 200 || status === 409),
    statuses.join(','),
  );
  for (const answer of answers.filter((candidate) => candidate.status === 409)) t.is(answer.body.errorCode, 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
  const ids = new Set(answers.filter((answer) => answer.status < 300).map((answer) => answer.body.responseObject.payoutId));
  t.is(ids.size, 1);
  t.is(world.funding.requests.size, 1);
  t.is(world.wallets.asked.length, 1, 'the customer’s wallet was asked for once');
});
