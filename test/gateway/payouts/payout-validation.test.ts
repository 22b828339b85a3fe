/**
 * POST /api/v1/payouts body rules (document 2): each a validation 400 (message 'Invalid
 * request', no errorCode, detail in fieldErrors and formErrors) with document 2's messages
 * where it gives them; and a Bitcoin refund address in bech32 kept lower-case.
 */
import test from 'ava';
import { BTC_TOKEN_ADDRESS } from '../../../machines/payout/index.js';
import { USDC_ON_BASE, payoutBody } from '../../support/payout-fakes.js';
import { newKey, payoutWorld, type PayoutWorld } from './payout-world.js';

const BASE_FUNDING = { chainId: 8453, tokenAddress: USDC_ON_BASE };
/** BIP 173's mainnet P2WPKH example, written upper-case as it is valid. */
const BECH32_UPPER = 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4';
const BITCOIN = { chainId: 8253038, tokenAddress: BTC_TOKEN_ADDRESS };

async function refused(t: import('ava').ExecutionContext, world: PayoutWorld, body: unknown, what: string) {
  const answer = await world.create(body, newKey());
  t.is(answer.status, 400, `${what}: ${JSON.stringify(answer.body)}`);
  t.is(answer.body.message, 'Invalid request', what);
  t.is(answer.body.errorCode, undefined, what);
  return answer.body.responseObject as { fieldErrors: Record<string, string[]>; formErrors: string[] };
}

test('unknown fields are rejected at the top level and inside payout and funding', async (t) => {
  const world = await payoutWorld(t);
  t.truthy((await refused(t, world, payoutBody({ customerId: 'c1' }), 'top level')).formErrors.length);
  t.truthy(
    (await refused(t, world, payoutBody({ payout: { amount: '100', chainId: 8453, tokenAddress: USDC_ON_BASE, decimals: 6 } }), 'payout')).fieldErrors.payout,
  );
  t.truthy((await refused(t, world, payoutBody({ funding: { ...BASE_FUNDING, amount: '104' } }), 'funding')).fieldErrors.funding);
});

test('funding tokens: a non-EVM address on an EVM chain, a wrong token on Bitcoin, a missing or invalid Bitcoin refund address', async (t) => {
  const world = await payoutWorld(t);
  t.true(
    (await refused(t, world, payoutBody({ funding: { chainId: 42161, tokenAddress: BTC_TOKEN_ADDRESS } }), 'non-EVM token')).fieldErrors.funding!.includes(
      'Must be an EVM address',
    ),
  );
  t.true(
    (await refused(t, world, payoutBody({ funding: { ...BASE_FUNDING, refundAddress: BECH32_UPPER } }), 'non-EVM refund')).fieldErrors.funding!.includes(
      'Must be an EVM address',
    ),
  );
  t.true(
    (
      await refused(t, world, payoutBody({ funding: { chainId: 8253038, tokenAddress: USDC_ON_BASE, refundAddress: BECH32_UPPER } }), 'wrong BTC token')
    ).fieldErrors.funding!.includes('Must be the BTC token address'),
  );
  t.true((await refused(t, world, payoutBody({ funding: BITCOIN }), 'no refund')).fieldErrors.funding!.includes('Bitcoin funding needs a refund address'));
  for (const refundAddress of [
    'bc1qnotanaddress',
    '0x1111111111111111111111111111111111111111',
    `${BECH32_UPPER.slice(0, -1)}5`,
    'BC1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
  ])
    t.true(
      (await refused(t, world, payoutBody({ funding: { ...BITCOIN, refundAddress } }), `refund ${refundAddress}`)).fieldErrors.funding!.includes(
        'Must be a Bitcoin address',
      ),
      refundAddress,
    );
});

test('rails: repeated, unknown, the retired crypto value and an empty list are refused', async (t) => {
  const world = await payoutWorld(t);
  t.true(
    (await refused(t, world, payoutBody({ rails: ['venmo', 'zelle', 'venmo'] }), 'duplicates')).fieldErrors.rails!.includes('Each rail can be listed once'),
  );
  for (const rails of [['wise'], ['crypto'], ['venmo', 'crypto'], [], ['relay_8453'], 'venmo'])
    t.truthy((await refused(t, world, payoutBody({ rails }), `rails ${JSON.stringify(rails)}`)).fieldErrors.rails, JSON.stringify(rails));
});

test('returnUrl, merchantReference, funding chain, amount decimals and e-mail are held to their rules', async (t) => {
  const world = await payoutWorld(t);
  t.truthy((await refused(t, world, payoutBody({ returnUrl: 'http://shop.example/back' }), 'http returnUrl')).fieldErrors.returnUrl);
  t.truthy((await refused(t, world, payoutBody({ merchantReference: 'r'.repeat(129) }), '129-character reference')).fieldErrors.merchantReference);
  t.truthy((await refused(t, world, payoutBody({ merchantReference: '' }), 'empty reference')).fieldErrors.merchantReference);
  for (const chainId of [792703809, 728126428, 133701, 0])
    t.truthy((await refused(t, world, payoutBody({ funding: { chainId, tokenAddress: USDC_ON_BASE } }), `funding chain ${chainId}`)).fieldErrors.funding);
  for (const amount of ['100.1234567', '-100', '1e2', '100.', ' 100'])
    t.truthy((await refused(t, world, payoutBody({ payout: { amount, chainId: 8453, tokenAddress: USDC_ON_BASE } }), `amount ${amount}`)).fieldErrors.payout);
  t.truthy((await refused(t, world, payoutBody({ customerEmail: `${'a'.repeat(250)}@example.com` }), 'e-mail over 254')).fieldErrors.customerEmail);
  t.truthy((await refused(t, world, payoutBody({ customerEmail: 'not-an-email' }), 'not an e-mail')).fieldErrors.customerEmail);

  // At the edges, the same fields are taken.
  const taken = await world.create(
    payoutBody({
      merchantReference: 'r'.repeat(128),
      returnUrl: 'https://shop.example/back',
      payout: { amount: '100.000000', chainId: 8453, tokenAddress: USDC_ON_BASE },
    }),
    newKey(),
  );
  t.is(taken.status, 201, JSON.stringify(taken.body));
  t.like(taken.body.responseObject, { merchantReference: 'r'.repeat(128), returnUrl: 'https://shop.example/back', payout: { amount: '100.00' } });
});

test('a bc1 refund address in upper case is kept lower-case, and the lower-case form replays the same request', async (t) => {
  const world = await payoutWorld(t);
  const key = newKey();
  const created = await world.create(payoutBody({ funding: { ...BITCOIN, refundAddress: BECH32_UPPER } }), key);
  t.is(created.status, 201, JSON.stringify(created.body));
  t.like(created.body.responseObject, { funding: { chainId: 8253038, tokenAddress: BTC_TOKEN_ADDRESS, decimals: 8 } });
  t.is(world.funding.entry().request.refundAddress, BECH32_UPPER.toLowerCase(), 'the provider is given the lower-case address');
  t.is((await world.context(created.body.responseObject.payoutId)).funding.refundAddress, BECH32_UPPER.toLowerCase());
  const replay = await world.create(payoutBody({ funding: { ...BITCOIN, refundAddress: BECH32_UPPER.toLowerCase() } }), key);
  t.is(replay.status, 200);
  t.true(replay.body.responseObject.idempotentReplay);
  t.is(replay.body.responseObject.payoutId, created.body.responseObject.payoutId);
});
