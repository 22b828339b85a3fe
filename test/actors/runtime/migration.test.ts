import test from 'ava';
import { EmbeddedStore, defineKind } from '../../../actors/index.js';
import { counterKind, counterMachine, type CounterView } from '../../support/counter-kind.js';
import { startTestSystem } from '../../support/test-node.js';

test('a snapshot stored by an older machine version is migrated when it is read', async (t) => {
  const store = new EmbeddedStore();
  const v1 = await startTestSystem({ kinds: [counterKind()], store });
  await v1.system.askAt({ kind: 'counter', id: 'old' }, { type: 'OPEN' });
  await v1.system.askAt({ kind: 'counter', id: 'old' }, { type: 'ADD', n: 1 });
  await v1.system.drain();

  const v2 = defineKind({
    ...counterKind(),
    machine: counterMachine,
    machineVersion: 2,
    migrations: {
      1: (persisted) => {
        const context = persisted.context as Record<string, unknown>;
        return { ...persisted, context: { ...context, applied: [...(context.applied as number[]), 1000] } };
      },
    },
  });
  const upgraded = await startTestSystem({ kinds: [v2], store });
  const reply = (await upgraded.system.askAt({ kind: 'counter', id: 'old' }, { type: 'ADD', n: 2 })) as CounterView;
  t.deepEqual(reply.applied, [1, 1000, 2]);
  const doc = await upgraded.system.documents('counter').findOne({ _id: 'old' });
  t.is(doc!.machineVersion, 2);
});

test('a node refuses snapshots written by a newer machine version than it runs', async (t) => {
  const store = new EmbeddedStore();
  const newer = await startTestSystem({ kinds: [defineKind({ ...counterKind(), machineVersion: 3, migrations: { 1: (p) => p, 2: (p) => p } })], store });
  await newer.system.askAt({ kind: 'counter', id: 'future' }, { type: 'OPEN' });
  await newer.system.drain();
  const older = await startTestSystem({ kinds: [counterKind()], store });
  await t.throwsAsync(older.system.askAt({ kind: 'counter', id: 'future' }, { type: 'ADD', n: 1 }), { message: /machine version 3/ });
});
