/**
 * A merchant's payout settings (document 2, Limits) through the admin API: set by PATCH as
 * `payouts`, merged field by field, shown whole to operators and without the service's fee to
 * the account's own key, refused field by field in the validation 400, and read as not set up
 * on accounts stored before they existed.
 */
import test from 'ava';
import { EmbeddedStore } from '../../actors/index.js';
import { MerchantAccounts } from '../../gateway/merchants/merchant-accounts.js';
import { BTC_TOKEN_ADDRESS } from '../../machines/payout/funding-catalog.js';
import { PAYOUT_RAILS } from '../../machines/payout/payout-rails.js';
import { startTestGateway, withGateway } from '../support/gateway.js';

const WALLET = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const defaults = { methods: [], merchantFeeBps: 0, merchantWalletAddress: null, serviceFeeBps: 200, fundingTokens: null, payoutStep: '100' };

test('payouts are not set up on a new account: null to operators and to the merchant', (t) =>
  withGateway(async (gateway) => {
    const created = await gateway.admin('POST', '/internal/v1/merchants', { name: 'Acme', tier: 'BASE' });
    t.is(created.body.responseObject.merchant.payouts, null);
    t.is(created.body.responseObject.sandboxMerchant.payouts, null);
    const me = await gateway.request('GET', '/api/v1/merchants/me', { key: created.body.responseObject.liveApiKey });
    t.is(me.body.responseObject.payouts, null);
    t.is((await new MerchantAccounts(gateway.node.system).byId(created.body.responseObject.merchant.id))!.payouts, null);
  }));

test('PATCH sets every payout setting, normalised; operators see the service fee, the merchant’s own key does not', (t) =>
  withGateway(async (gateway) => {
    const { liveId, liveKey } = await gateway.createMerchant();
    const patched = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, {
      payouts: {
        methods: ['routeb_133701', 'zelle', 'routea_8453', 'venmo'],
        merchantFeeBps: 100,
        merchantWalletAddress: WALLET.toLowerCase(),
        serviceFeeBps: 250,
        fundingTokens: [
          { chainId: 8253038, tokenAddress: BTC_TOKEN_ADDRESS },
          { chainId: 8453, tokenAddress: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' },
          { chainId: 1, tokenAddress: '0x0000000000000000000000000000000000000000' },
        ],
        payoutStep: '250.000000',
      },
    });
    t.is(patched.status, 200, JSON.stringify(patched.body));
    const payouts = {
      methods: ['venmo', 'zelle', 'routea_8453', 'routeb_133701'],
      merchantFeeBps: 100,
      merchantWalletAddress: WALLET,
      serviceFeeBps: 250,
      fundingTokens: [
        { chainId: 1, tokenAddress: '0x0000000000000000000000000000000000000000' },
        { chainId: 8453, tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
        { chainId: 8253038, tokenAddress: BTC_TOKEN_ADDRESS },
      ],
      payoutStep: '250',
    };
    t.deepEqual(patched.body.responseObject.payouts, payouts, 'rails in PayoutRail order, tokens in catalog order and spelling, the wallet EIP-55');

    const me = await gateway.request('GET', '/api/v1/merchants/me', { key: liveKey });
    const { serviceFeeBps: _operatorsOnly, ...merchantView } = payouts;
    t.deepEqual(me.body.responseObject.payouts, merchantView);
    t.false(JSON.stringify(me.body).includes('serviceFeeBps'));
    t.deepEqual({ ...me.body.responseObject, payouts: null }, { ...patched.body.responseObject, payouts: null }, 'the rest of the profile is the same');

    t.deepEqual((await new MerchantAccounts(gateway.node.system).byId(liveId))!.payouts, {
      methods: ['venmo', 'zelle', 'routea_8453', 'routeb_133701'],
      merchantFeeBps: 100,
      merchantWalletAddress: WALLET,
      serviceFeeBps: 250,
      fundingTokens: ['1:0x0000000000000000000000000000000000000000', '8453:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', `8253038:${BTC_TOKEN_ADDRESS}`],
      payoutStepUsdc: 250_000_000n,
    });
  }));

test('a partial payouts change merges over the account’s settings, over the defaults while none; other changes keep them; null clears them', (t) =>
  withGateway(async (gateway) => {
    const { liveId, sandboxId } = await gateway.createMerchant();
    const patch = async (body: unknown) => {
      const answer = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, body);
      t.is(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.responseObject.payouts;
    };
    t.deepEqual(await patch({ payouts: {} }), defaults, 'an empty change sets payouts up with the defaults');
    t.deepEqual(
      await patch({ payouts: { methods: ['zelle'], merchantFeeBps: 150 } }),
      { ...defaults, methods: ['zelle'], merchantFeeBps: 150 },
      'a fee without a wallet is kept',
    );
    t.deepEqual(
      await patch({ payouts: { merchantWalletAddress: WALLET, fundingTokens: [{ chainId: 10, tokenAddress: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85' }] } }),
      {
        ...defaults,
        methods: ['zelle'],
        merchantFeeBps: 150,
        merchantWalletAddress: WALLET,
        fundingTokens: [{ chainId: 10, tokenAddress: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85' }],
      },
    );
    t.is((await patch({ tier: 'PRO' })).merchantFeeBps, 150, 'a change of another setting keeps the payout settings');
    t.deepEqual(await patch({ payouts: { fundingTokens: null, merchantWalletAddress: null, methods: [] } }), { ...defaults, merchantFeeBps: 150 });
    t.is(await patch({ payouts: null }), null);
    t.deepEqual(await patch({ payouts: { payoutStep: '1' } }), { ...defaults, payoutStep: '1' }, 'set up again from the defaults, not from what was cleared');

    const sandbox = await gateway.admin('PATCH', `/internal/v1/merchants/${sandboxId}`, { tier: 'BASE' });
    t.is(sandbox.body.responseObject.payouts, null, 'settings are per account');
  }));

test('the payout step is a whole number of USDC from 1 to 1000', (t) =>
  withGateway(async (gateway) => {
    const { liveId } = await gateway.createMerchant();
    for (const [sent, shown] of [
      ['1', '1'],
      ['1000', '1000'],
      ['1000.000000', '1000'],
      ['0050', '50'],
    ] as const) {
      const answer = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { payouts: { payoutStep: sent } });
      t.is(answer.status, 200, sent);
      t.is(answer.body.responseObject.payouts.payoutStep, shown, sent);
    }
  }));

test('bad payout settings are the validation 400 under payouts, each message naming its field, and change nothing', (t) =>
  withGateway(async (gateway) => {
    const { liveId, liveKey } = await gateway.createMerchant();
    await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { payouts: { methods: ['venmo'] } });
    const before = (await gateway.request('GET', '/api/v1/merchants/me', { key: liveKey })).body.responseObject;
    const usdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
    for (const [payouts, expected] of [
      [{ methods: ['crypto'] }, /^methods: crypto is retired; name each network's rail/],
      [{ methods: ['relay_42161'] }, /^methods: each must be a payout rail \(venmo, /],
      [{ methods: ['venmo', 'zelle', 'venmo'] }, /^methods: each rail can be listed once$/],
      [{ methods: 'venmo' }, /^methods must be a list of payout rails$/],
      [{ merchantFeeBps: 1001 }, /^merchantFeeBps must be a whole number of basis points from 0 to 1000$/],
      [{ merchantFeeBps: -1 }, /^merchantFeeBps must be/],
      [{ merchantFeeBps: 1.5 }, /^merchantFeeBps must be/],
      [{ merchantFeeBps: '100' }, /^merchantFeeBps must be/],
      [{ serviceFeeBps: 1001 }, /^serviceFeeBps must be a whole number of basis points from 0 to 1000$/],
      [{ merchantWalletAddress: '0x12' }, /^merchantWalletAddress must be 0x followed by 40 hex digits, or null$/],
      [{ merchantWalletAddress: `0x${'0'.repeat(40)}` }, /^merchantWalletAddress must not be the zero address/],
      [{ fundingTokens: [] }, /^fundingTokens: list at least one token, or send null/],
      [{ fundingTokens: [{ chainId: 8453, tokenAddress: `0x${'0'.repeat(39)}1` }] }, /^fundingTokens: 8453:0x0{39}1 is not a funding token of the catalog$/],
      [
        { fundingTokens: [{ chainId: 792703809, tokenAddress: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' }] },
        /^fundingTokens: 792703809:EPjF\w+ is not a funding token/,
      ],
      [
        {
          fundingTokens: [
            { chainId: 8453, tokenAddress: usdc },
            { chainId: 8453, tokenAddress: usdc.toLowerCase() },
          ],
        },
        /^fundingTokens: each token can be listed once$/,
      ],
      [{ fundingTokens: [{ chainId: '8453', tokenAddress: usdc }] }, /^fundingTokens: each must be \{ chainId, tokenAddress \}/],
      [{ fundingTokens: [{ chainId: 8453, tokenAddress: usdc, symbol: 'USDC' }] }, /^fundingTokens: a token has chainId and tokenAddress only, not symbol$/],
      [{ payoutStep: '0' }, /^payoutStep must be a whole number of USDC from 1 to 1000/],
      [{ payoutStep: '0.5' }, /^payoutStep must be/],
      [{ payoutStep: '100.5' }, /^payoutStep must be/],
      [{ payoutStep: '1001' }, /^payoutStep must be/],
      [{ payoutStep: '1000.000001' }, /^payoutStep must be/],
      [{ payoutStep: '1e3' }, /^payoutStep must be/],
      [{ payoutStep: 100 }, /^payoutStep must be/],
      [{ colour: 'blue' }, /colour/],
      ['on', /./],
    ] as const) {
      const refused = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { tier: 'PRO', payouts });
      t.is(refused.status, 400, JSON.stringify(payouts));
      t.is(refused.body.message, 'Invalid request');
      t.false('errorCode' in refused.body);
      const messages: string[] = refused.body.responseObject.fieldErrors.payouts ?? [];
      t.true(
        messages.some((message) => expected.test(message)),
        `${JSON.stringify(payouts)}: ${JSON.stringify(messages)}`,
      );
    }
    const both = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { payouts: { merchantFeeBps: 2000, payoutStep: '0' } });
    t.is(both.body.responseObject.fieldErrors.payouts.length, 2, 'every bad field in one answer');

    t.deepEqual((await gateway.request('GET', '/api/v1/merchants/me', { key: liveKey })).body.responseObject, before, 'nothing was changed');
  }));

test('every payout method of document 2 can be turned on', (t) =>
  withGateway(async (gateway) => {
    const { liveId } = await gateway.createMerchant();
    const answer = await gateway.admin('PATCH', `/internal/v1/merchants/${liveId}`, { payouts: { methods: [...PAYOUT_RAILS].reverse() } });
    t.deepEqual(answer.body.responseObject.payouts.methods, [...PAYOUT_RAILS]);
  }));

test('an account stored before payouts existed reads as not set up, and a partial change sets it up over the defaults', async (t) => {
  const store = new EmbeddedStore();
  const first = await startTestGateway({}, { store });
  let account: { liveId: string; liveKey: string };
  try {
    account = await first.createMerchant();
  } finally {
    await first.stop();
  }
  const stored = await store.collection({ name: 'actors_merchant', indexes: [] });
  t.true(
    await stored.updateOne(
      { _id: account.liveId },
      { $unset: { 'snapshot.context.settings.payouts': '', 'view.profile.payouts': '', 'view.payoutSettings': '' } },
    ),
  );
  const second = await startTestGateway({}, { store });
  try {
    const me = await second.request('GET', '/api/v1/merchants/me', { key: account.liveKey });
    t.is(me.status, 200, JSON.stringify(me.body));
    t.is(me.body.responseObject.payouts, null);
    t.is((await new MerchantAccounts(second.node.system).byId(account.liveId))!.payouts, null);
    const other = await second.admin('PATCH', `/internal/v1/merchants/${account.liveId}`, { tier: 'PRO' });
    t.is(other.body.responseObject.payouts, null, 'another change leaves payouts not set up');
    const patched = await second.admin('PATCH', `/internal/v1/merchants/${account.liveId}`, { payouts: { methods: ['venmo'] } });
    t.deepEqual(patched.body.responseObject.payouts, { ...defaults, methods: ['venmo'] });
  } finally {
    await second.stop();
  }
});
