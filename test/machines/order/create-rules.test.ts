import test from 'ava';
import { checkTier, resolveDynamicOrders, resolveEnabledRails, type OrderAccount } from '../../../machines/order/index.js';

const account = (overrides: Partial<OrderAccount> = {}): OrderAccount => ({
  environment: 'LIVE',
  tier: 'BASE',
  dynamicOrdersEnabled: true,
  enabledRails: ['venmo', 'zelle'],
  liveBridges: true,
  evmWalletAddress: '0x1111111111111111111111111111111111111111',
  solanaWalletAddress: null,
  ...overrides,
});

test('a live account needs a tier; a sandbox account does not', (t) => {
  t.like(checkTier(account({ tier: null })), { ok: false, code: 'TIER_REQUIRED' });
  t.deepEqual(checkTier(account({ tier: null, environment: 'SANDBOX' })), { ok: true });
  t.deepEqual(checkTier(account()), { ok: true });
});

test('dynamic orders: inherited, turned off per order, never on against the account; an open amount needs them', (t) => {
  t.deepEqual(resolveDynamicOrders(undefined, false, account()), { ok: true, dynamicOrdersEnabled: true });
  t.deepEqual(resolveDynamicOrders(false, false, account()), { ok: true, dynamicOrdersEnabled: false });
  t.deepEqual(resolveDynamicOrders(undefined, false, account({ dynamicOrdersEnabled: false })), { ok: true, dynamicOrdersEnabled: false });
  t.like(resolveDynamicOrders(true, false, account({ dynamicOrdersEnabled: false })), { ok: false, code: 'DYNAMIC_ORDERS_DISABLED' });
  t.like(resolveDynamicOrders(false, true, account()), { ok: false, code: 'OPEN_AMOUNT_DISABLED' });
  t.like(resolveDynamicOrders(undefined, true, account({ dynamicOrdersEnabled: false })), { ok: false, code: 'OPEN_AMOUNT_DISABLED' });
  t.deepEqual(resolveDynamicOrders(undefined, true, account()), { ok: true, dynamicOrdersEnabled: true });
});

test('rails: the account’s by default, each once; one the account has not enabled is refused naming enabledRails', (t) => {
  t.deepEqual(resolveEnabledRails(undefined, account()), { ok: true, enabledRails: ['venmo', 'zelle'] });
  t.deepEqual(resolveEnabledRails(['zelle', 'zelle'], account()), { ok: true, enabledRails: ['zelle'] });
  t.deepEqual(resolveEnabledRails(['paypal', 'zelle', 'wise'], account()), {
    ok: false,
    code: 'FIELD_REFUSED',
    field: 'enabledRails',
    message: 'not enabled for this merchant: paypal, wise',
  });
});
