/**
 * Document 2: the payout view never includes the customer's e-mail, wallet address or the
 * service's own fee. Every answer of the payout routes and every PAYOUT_ORDER_* webhook
 * (and the events list) of payouts driven through creation, replay, partial funding,
 * funding, cancellation and expiry is scanned for them.
 */
import test from 'ava';
import { listEvents } from '../../support/merchant-events.js';
import { payoutBody } from '../../support/payout-fakes.js';
import { HOUR, SETTINGS, USDC, newKey, payoutWorld } from './payout-world.js';

/** An unusual service fee, so a field carrying it stands out. */
const SERVICE_FEE_BPS = 237;
const EMAIL = 'Priv.Acy+Payout@Example.COM';

/** Every key path and leaf of a JSON value. */
function* walk(value: unknown, path = ''): Generator<{ path: string; key: string; leaf: unknown }> {
  if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* walk(item, `${path}[${index}]`);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      yield { path: `${path}.${key}`, key, leaf: item };
      yield* walk(item, `${path}.${key}`);
    }
}

test('no payout answer, webhook or listed event carries the customer’s e-mail, wallet address or the service fee', async (t) => {
  const world = await payoutWorld(t, { webhooks: true, settings: { ...SETTINGS, serviceFeeBps: SERVICE_FEE_BPS } });
  const answers: unknown[] = [];
  const keep = async <T extends { body: unknown }>(answer: Promise<T>): Promise<T> => {
    const got = await answer;
    answers.push(got.body);
    return got;
  };

  const key = newKey();
  const funded = (await keep(world.create(payoutBody({ customerEmail: EMAIL, merchantReference: 'ref-1' }), key))).body.responseObject;
  await keep(world.create(payoutBody({ customerEmail: EMAIL.toLowerCase(), merchantReference: 'ref-1' }), key));
  const wallet = world.funding.entry(`req_${funded.payoutId}`).request.recipient.toLowerCase();
  t.is(world.wallets.asked.at(-1), EMAIL.toLowerCase(), 'the wallet provider was given the e-mail');

  world.funding.deliver(world.funding.send(50n * USDC, world.iso(), `req_${funded.payoutId}`), 48n * USDC, `req_${funded.payoutId}`);
  await world.activity(funded.payoutId);
  await keep(world.read(funded.payoutId));
  await keep(world.cancel(funded.payoutId));
  world.funding.deliver(world.funding.send(60n * USDC, world.iso(), `req_${funded.payoutId}`), 58n * USDC, `req_${funded.payoutId}`);
  await world.activity(funded.payoutId);

  const cancelled = (await keep(world.create(payoutBody({ customerEmail: EMAIL }), newKey()))).body.responseObject;
  await keep(world.cancel(cancelled.payoutId));
  const expiring = (await keep(world.create(payoutBody({ customerEmail: EMAIL, rails: ['zelle'] }), newKey()))).body.responseObject;
  await world.advance(25 * HOUR);
  for (const id of [funded.payoutId, cancelled.payoutId, expiring.payoutId]) await keep(world.read(id));
  await keep(world.list());
  await keep(world.list(`customerEmail=${encodeURIComponent(EMAIL)}`));
  t.is((answers.at(-1) as any).responseObject.total, 3, 'the list finds them by the e-mail, without showing it');

  const expected = new Set(['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_PARTIALLY_FUNDED', 'PAYOUT_ORDER_FUNDED', 'PAYOUT_ORDER_CANCELLED', 'PAYOUT_ORDER_EXPIRED']);
  const receiver = world.receiver!;
  await receiver.until(
    () => receiver.delivered().length >= 7 && [...expected].every((type) => receiver.delivered().some((event) => event.type === type)),
    10_000,
    'every payout webhook',
  );
  const webhooks = receiver.delivered();
  t.true(webhooks.every((event) => event.type.startsWith('PAYOUT_ORDER_')));
  const listed = (await listEvents(world.gateway, world.key, 'limit=100')).events;

  const scanned = [...answers, ...webhooks, ...listed];
  t.true(scanned.length >= 20);
  const text = JSON.stringify(scanned).toLowerCase();
  t.false(text.includes(EMAIL.toLowerCase()), 'the e-mail, in any case');
  t.false(text.includes('priv.acy'), 'nor its local part');
  t.false(text.includes(wallet), 'the customer’s wallet');
  t.false(text.includes(wallet.slice(2)), 'the customer’s wallet without 0x');
  for (const { path, key: name, leaf } of walk(scanned)) {
    t.false(/service/i.test(name), `no service field: ${path}`);
    t.false(leaf === SERVICE_FEE_BPS || leaf === String(SERVICE_FEE_BPS), `no field holds the service fee: ${path}`);
  }
  for (const event of webhooks) t.like(event, { version: 2 });
});
