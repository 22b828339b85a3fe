/**
 * An order's actors over time over HTTP (GET /internal/v1/actors/order/{orderId}/sequence,
 * docs/inspector.md): the order, its payment and the webhook deliveries of the events they
 * emitted, with every turn of each in one list by time, each the same turn the actor's
 * own history lists, the tells between them named.
 */
import test from 'ava';
import { answerOf } from '../../support/checkout.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { inspectedRun } from '../../support/inspected-run.js';

async function read(gateway: TestGateway, path: string): Promise<any> {
  return answerOf(await gateway.admin('GET', path), 200, path);
}

test('an order’s sequence: its payment, its deliveries, and all their turns by time with the tells between them', async (t) => {
  const { world, paid, paymentId } = await inspectedRun(t);
  const { gateway, webhook } = world;
  const sequence = await read(gateway, `/internal/v1/actors/order/${paid.id}/sequence`);

  const kinds = sequence.actors.map((actor: { kind: string }) => actor.kind);
  t.deepEqual(kinds.slice(0, 2), ['order', 'payment']);
  t.like(sequence.actors[0], { id: paid.id, machine: 'order', state: 'FULFILLED', turnsTruncated: false });
  t.like(sequence.actors[1], { id: paymentId, state: 'SETTLED' });

  const deliveries = sequence.actors.filter((actor: { kind: string }) => actor.kind === 'delivery');
  const logged = (await read(gateway, `/internal/v1/actors?query=${webhook.id}&limit=100`)).actors.map((actor: { id: string }) => actor.id);
  t.true(deliveries.length >= 2, 'the order’s and the payment’s events were delivered');
  for (const delivery of deliveries) t.true(logged.includes(delivery.id), `${delivery.id} is a delivery to the merchant’s endpoint`);

  const times = sequence.turns.map((turn: { at: string }) => Date.parse(turn.at));
  t.deepEqual(
    times,
    [...times].sort((a, b) => a - b),
    'oldest first',
  );
  for (const actor of sequence.actors) {
    const own = (await read(gateway, `/internal/v1/actors/${actor.kind}/${actor.id}/history?limit=100`)).turns;
    const listed = sequence.turns.filter((turn: { actor: string }) => turn.actor === `${actor.kind}:${actor.id}`);
    t.deepEqual(
      listed.map((turn: any) => [turn.version, turn.event, turn.messageId]),
      own.map((turn: any) => [turn.version, turn.event.type, turn.messageId]),
      `every turn of ${actor.kind}:${actor.id}`,
    );
  }

  // The clock stands still between a tell and the turn it causes: the cause comes first.
  const position = new Map(sequence.turns.map((turn: any, index: number) => [`${turn.actor}:${turn.version}`, index]));
  let caused = 0;
  sequence.turns.forEach((turn: any, index: number) => {
    const sender = /^(.+:\d+):\d+$/.exec(turn.messageId)?.[1];
    if (sender === undefined || !position.has(sender)) return;
    caused++;
    t.true((position.get(sender) as number) < index, `${turn.actor} ${turn.event} after the turn that told it`);
  });
  t.true(caused >= 2, 'tells between the listed actors');

  const tell = sequence.turns.find((turn: any) => turn.actor === `payment:${paymentId}` && turn.event === 'SIMULATE_PAYMENT');
  t.true(
    tell.told.some((told: { to: string }) => told.to === `order:${paid.id}`),
    'the payment told the order',
  );
  const heard = sequence.turns.filter((turn: any) => turn.actor === `order:${paid.id}` && turn.messageId.startsWith(`payment:${paymentId}:`));
  t.true(heard.length >= 1, 'and the order’s turns name the payment as their sender');
});

test('an unknown order is a 404, a malformed id a 400, no token a 401', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const nobody = `ord_${'A'.repeat(24)}`;
  t.like((await gateway.admin('GET', `/internal/v1/actors/order/${nobody}/sequence`)).body, { statusCode: 404, errorCode: 'ACTOR_NOT_FOUND' });
  for (const id of ['ord_nobody', `pay_${'A'.repeat(24)}`]) {
    const malformed = await gateway.admin('GET', `/internal/v1/actors/order/${id}/sequence`);
    t.is(malformed.status, 400, id);
    t.is(malformed.body.message, 'Invalid request', id);
  }
  t.is((await gateway.request('GET', `/internal/v1/actors/order/${nobody}/sequence`)).status, 401);
});
