import test from 'ava';
import { createActor, initialTransition, transition } from 'xstate';
import { makerMachine, makerSequenceMachine, payeeHash, type MakerInput } from '../../../machines/maker/index.js';

const input: MakerInput = {
  record: {
    id: 1,
    processorName: 'zelle',
    offchainId: 'mary@example.com',
    telegramUsername: null,
    hashedOnchainId: payeeHash('mary@example.com'),
    isBusiness: false,
    revoked: false,
    metadataJson: null,
    createdAt: '2026-11-23T12:00:00.000Z',
  },
  paymentMethods: ['zelle-chase', 'zelle-bofa', 'zelle-citi'],
};

test('a new maker queues the registration of its payee on every payment method, and nothing runs', (t) => {
  const [snapshot, actions] = initialTransition(makerMachine, input);
  t.is(snapshot.value, 'REGISTERED');
  t.deepEqual(snapshot.context, input);
  t.deepEqual(
    actions.map((action) => ({ type: action.type, params: action.params })),
    [{ type: 'registerPayee', params: { paymentMethods: input.paymentMethods, payeeId: 'mary@example.com', at: input.record.createdAt } }],
  );
});

test('a maker’s persisted snapshot restores unchanged', (t) => {
  const actor = createActor(makerMachine, { input });
  actor.start();
  const persisted = JSON.parse(JSON.stringify(actor.getPersistedSnapshot()));
  actor.stop();
  const restored = makerMachine.resolveState(persisted);
  t.deepEqual(restored.context, input);
});

test('the sequence hands out 1, 2, 3: one number per TAKE', (t) => {
  let [snapshot] = initialTransition(makerSequenceMachine);
  const taken: number[] = [];
  for (let i = 0; i < 3; i++) {
    [snapshot] = transition(makerSequenceMachine, snapshot, { type: 'TAKE' });
    taken.push(snapshot.context.issued);
  }
  t.deepEqual(taken, [1, 2, 3]);
});
