/**
 * Dead letters end to end on a node: a tell its target refuses, from a kind whose
 * machine takes no MESSAGE_REFUSED, lands in the dead letters, and the admin API
 * lists it, retries it (the tell runs again) and discards another with a reason.
 */
import test from 'ava';
import { counterKind, type CounterView } from '../support/counter-kind.js';
import { startTestGateway } from '../support/gateway.js';

const counter = (id: string) => ({ kind: 'counter', id });

test('a refused tell is listed by the admin API, retried once its target exists, or discarded with a reason', async (t) => {
  const gateway = await startTestGateway({}, { kinds: [counterKind()] });
  t.teardown(() => gateway.node.stop());
  const { system } = gateway.node;
  await system.askAt(counter('sender'), { type: 'OPEN' });
  await system.askAt(counter('sender'), { type: 'FORWARD', to: 'opens-later', n: 5 });
  await system.askAt(counter('sender'), { type: 'FORWARD', to: 'never-opens', n: 6 });
  await system.effectsIdle();

  const listed = await gateway.admin('GET', '/internal/v1/dead-letters?source=refusal');
  t.is(listed.status, 200);
  const letters = listed.body.responseObject.deadLetters as Array<{ id: string; payload: unknown; error: { code: string }; actor: unknown }>;
  t.is(letters.length, 2);
  t.is(listed.body.responseObject.openCount, 2);
  const about = (target: string) => letters.find((letter) => JSON.stringify(letter.payload).includes(target))!;
  t.like(about('opens-later'), { error: { code: 'UNKNOWN_ACTOR' }, actor: { kind: 'counter', id: 'sender' } });

  await system.askAt(counter('opens-later'), { type: 'OPEN' });
  const retried = await gateway.admin('POST', `/internal/v1/dead-letters/${about('opens-later').id}/retry`);
  t.is(retried.status, 200);
  t.is(retried.body.responseObject.status, 'RETRIED');
  await system.effectsIdle();
  const target = (await system.documents('counter').findOne({ _id: 'opens-later' }))!.view as unknown as CounterView;
  t.deepEqual(target.applied, [5]);

  const discarded = await gateway.admin('POST', `/internal/v1/dead-letters/${about('never-opens').id}/discard`, { reason: 'no such counter will exist' });
  t.is(discarded.status, 200);
  t.like(discarded.body.responseObject, { status: 'DISCARDED', resolution: 'no such counter will exist' });
  const open = await gateway.admin('GET', '/internal/v1/dead-letters');
  t.is(open.body.responseObject.openCount, 0);
  const again = await gateway.admin('POST', `/internal/v1/dead-letters/${about('never-opens').id}/retry`);
  t.is(again.status, 409);
  t.is(again.body.errorCode, 'DEAD_LETTER_NOT_OPEN');
});
