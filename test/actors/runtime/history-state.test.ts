import test from 'ava';
import { assign, setup } from 'xstate';
import { defineKind } from '../../../actors/index.js';
import { startTestSystem } from '../../support/test-node.js';

/** A player that pauses from inside PLAYING and resumes where it was, through a history state. */
const playerMachine = setup({
  types: { context: {} as { id: string; resumes: number }, events: {} as { type: 'NEXT' } | { type: 'PAUSE' } | { type: 'RESUME' } | { type: 'START' } },
}).createMachine({
  id: 'player',
  context: ({ input }) => ({ id: (input as { id: string }).id, resumes: 0 }),
  initial: 'PLAYING',
  states: {
    PLAYING: {
      initial: 'INTRO',
      states: {
        INTRO: { on: { NEXT: 'VERSE' } },
        VERSE: { on: { NEXT: 'CHORUS' } },
        CHORUS: {},
        LAST: { type: 'history' },
      },
      on: { PAUSE: 'PAUSED' },
    },
    PAUSED: { on: { RESUME: { target: 'PLAYING.LAST', actions: assign({ resumes: ({ context }) => context.resumes + 1 }) } } },
  },
});

const playerKind = defineKind({
  name: 'player',
  machine: playerMachine,
  machineVersion: 1,
  createdBy: ['START'],
  input: (_event, id) => ({ id }),
  view: (snapshot) => ({ state: snapshot.value, resumes: (snapshot.context as { resumes: number }).resumes }),
});

test('a history state returns to where it left off after the actor is reloaded from the store', async (t) => {
  const first = await startTestSystem({ kinds: [playerKind] });
  const player = { kind: 'player', id: 'p1' };
  await first.system.askAt(player, { type: 'START' });
  await first.system.askAt(player, { type: 'NEXT' });
  await first.system.askAt(player, { type: 'PAUSE' });
  await first.system.halt();

  const second = await startTestSystem({ kinds: [playerKind], store: first.store, clock: first.clock });
  const resumed = await second.system.askAt(player, { type: 'RESUME' });
  t.deepEqual(resumed, { state: { PLAYING: 'VERSE' }, resumes: 1 });
});
