import test from 'ava';
import {
  PLATFORMS,
  PLATFORM_ACTIONS,
  SESSION_FORMATS,
  PARAM_RULE,
  actionsOf,
  fillPlaceholders,
  placeholdersOf,
  platformAction,
  platformById,
  type ActionDefinition,
  type RequestTemplate,
} from '../../../machines/platforms/index.js';
import { FIAT_RAILS, RAIL_CURRENCIES, ZELLE_BANKS, transferAction } from '../../../machines/rails.js';

const requestsOf = (action: ActionDefinition): RequestTemplate[] => [action.request, ...(action.accountRequest ? [action.accountRequest] : [])];

test('document 3’s buyer TEE platforms each have a transfer action named as the checkout names it', (t) => {
  const payments = PLATFORMS.filter((platform) => platform.payment);
  t.deepEqual(payments.map((platform) => platform.id).sort(), [
    'cashapp',
    'chime',
    'monzo',
    'paypal',
    'paypal-business',
    'revolut',
    'venmo',
    'wise',
    'zelle-bofa',
    'zelle-chase',
    'zelle-citi',
  ]);
  for (const platform of payments) t.is(platform.payment!.type, transferAction(platform.id), platform.id);
});

test('document 3’s identity actions: platforms, session material and public params as its table lists them', (t) => {
  const identities = PLATFORM_ACTIONS.filter((entry) => entry.kind === 'identity').map(({ platform, action }) => ({
    platform: platform.id,
    actionType: action.type,
    session: action.session.map((field) => (field.optional ? `${field.name}?` : field.name)),
    params: action.params.map((param) => param.name),
  }));
  t.deepEqual(identities, [
    { platform: 'venmo', actionType: 'register_venmo', session: ['Cookie'], params: ['SENDER_ID'] },
    { platform: 'cashapp', actionType: 'register_cashapp', session: ['sessionCookie', 'requestPayload', 'requestHeaders?'], params: [] },
    { platform: 'wise', actionType: 'register_wise', session: ['Cookie', 'X-Access-Token'], params: ['PROFILE_ID'] },
    { platform: 'paypal', actionType: 'register_paypal', session: ['Cookie'], params: [] },
    { platform: 'alipay', actionType: 'register_alipay', session: ['Cookie'], params: [] },
  ]);
});

test('ids and action types are unique, and none can be mistaken for a provider file’s fixed name', (t) => {
  const ids = PLATFORMS.map((platform) => platform.id);
  t.is(new Set(ids).size, ids.length);
  for (const id of ids) t.regex(id, /^[a-z][a-z0-9-]{0,31}$/);
  // /providers/mobile/providers.json is the mobile manifest, never the stable template of a platform `mobile`.
  t.false(ids.includes('mobile'));
  const types = PLATFORM_ACTIONS.map((entry) => entry.action.type);
  t.is(new Set(types).size, types.length);
  for (const type of types) t.regex(type, /^[a-z][a-z0-9_]{0,63}$/);
  t.false(types.includes('providers'));
});

test('a request names only declared params, and sends every session field a client is told to capture, and nothing else', (t) => {
  for (const { platform, action } of PLATFORM_ACTIONS) {
    const where = `${platform.id} ${action.type}`;
    const fields = action.session.map((field) => field.name);
    const sent = new Set<string>();
    for (const request of requestsOf(action)) {
      for (const name of placeholdersOf(request))
        t.true(
          action.params.some((param) => param.name === name),
          `${where}: {${name}} is not a param`,
        );
      for (const header of request.headers) if ('session' in header) sent.add(header.session);
      if (request.headersFrom) sent.add(request.headersFrom);
      if (request.body && 'json' in request.body) sent.add(request.body.json);
    }
    t.deepEqual([...sent].sort(), [...fields].sort(), where);
    for (const field of action.session) {
      t.truthy(SESSION_FORMATS[field.format], where);
      if (field.capture.from === 'request-header') t.true(field.capture.header.length > 0, where);
    }
  }
});

test('every fiat rail’s platform is defined, in exactly the rail’s currencies', (t) => {
  for (const rail of FIAT_RAILS) {
    const platforms = rail === 'zelle' ? [...ZELLE_BANKS] : [rail];
    for (const id of platforms) t.deepEqual(platformById(id)?.currencies, RAIL_CURRENCIES[rail], id);
  }
  t.deepEqual(platformById('paypal-business')?.currencies, RAIL_CURRENCIES.paypal);
  for (const platform of PLATFORMS) {
    t.true(platform.currencies.length > 0, platform.id);
    for (const url of [platform.apiBaseUrl, platform.loginUrl]) t.is(new URL(url).protocol, 'https:', `${platform.id} ${url}`);
  }
});

test('actions are found by platform and type; a type of another platform is not the platform’s', (t) => {
  t.is(platformAction('venmo', 'transfer_venmo')?.kind, 'payment');
  t.is(platformAction('venmo', 'register_venmo')?.kind, 'identity');
  t.is(platformAction('venmo', 'transfer_wise'), undefined);
  t.is(platformAction('alipay', 'transfer_alipay'), undefined);
  t.is(platformAction('nope', 'transfer_venmo'), undefined);
  t.deepEqual(
    actionsOf(platformById('alipay')!).map((entry) => entry.kind),
    ['identity'],
  );
  t.is(
    PLATFORM_ACTIONS.length,
    PLATFORMS.reduce((count, platform) => count + actionsOf(platform).length, 0),
  );
});

test('placeholders are filled with each value encoded, and a missing value throws rather than sending the placeholder', (t) => {
  t.is(fillPlaceholders('/a/{PROFILE_ID}/b/{PAYMENT_ID}?x=1', { PAYMENT_ID: 'p:1', PROFILE_ID: 'q' }, encodeURIComponent), '/a/q/b/p%3A1?x=1');
  t.is(fillPlaceholders('{PAYMENT_ID}', { PAYMENT_ID: 'a b' }), 'a b');
  t.throws(() => fillPlaceholders('/a/{PAYMENT_ID}', {}), { message: 'no value for {PAYMENT_ID}' });
  t.deepEqual(placeholdersOf({ method: 'POST', path: '/x/{A}', headers: [], body: { form: { id: '{B}', fixed: 'c' } } }), ['A', 'B']);
});

test('the param rule admits ids of every platform’s form and nothing that could change a path', (t) => {
  const rule = new RegExp(PARAM_RULE.pattern);
  for (const id of ['4112345670011', 'tok_abc', 'tx_0000abc', 'BA1F2E3', '0f8e2b4c-1d2e-4f5a-9b8c-7d6e5f4a3b2c', 'p:1.2-3']) t.true(rule.test(id), id);
  for (const id of ['', '../admin', 'a/b', 'a?b', 'a b', 'x'.repeat(129)]) t.false(rule.test(id), id);
});
