/** The team's rules (machines/merchant/team.ts), through the merchant machine's pure transitions. */
import test from 'ava';
import { createActor, type SnapshotFrom } from 'xstate';
import { merchantMachine, type MerchantEvent, type MerchantInput } from '../../../machines/merchant/index.js';
import { applyTeamEvent, teamRefusal, type MerchantUser } from '../../../machines/merchant/team.js';

const AT = '2026-11-23T12:00:00.000Z';
const LATER = '2026-11-23T13:00:00.000Z';

function input(environment: 'LIVE' | 'SANDBOX'): MerchantInput {
  return {
    id: 'mer_live',
    name: 'Acme',
    environment,
    twinId: 'mer_twin',
    settings: {
      tier: 'BASE',
      evmWalletAddress: null,
      solanaWalletAddress: null,
      defaultPaymentCurrency: null,
      enabledRails: [],
      dynamicOrdersEnabled: true,
      completionDustThresholdUsdc: 500_000n,
      feePayer: 'MERCHANT',
      apiKeyIpAllowlist: [],
      inPersonCheckoutEnabled: false,
      payouts: null,
    },
    apiKeyHash: 'h',
    apiKeyHint: 'pk_…',
    at: AT,
  };
}

function run(environment: 'LIVE' | 'SANDBOX', events: MerchantEvent[]): SnapshotFrom<typeof merchantMachine> {
  const actor = createActor(merchantMachine, { input: input(environment) }).start();
  for (const event of events) actor.send(event);
  return actor.getSnapshot();
}

const owner = (userId: string, email = `${userId}@acme.example`): MerchantEvent => ({ type: 'ADD_MEMBER', userId, email, role: 'OWNER', at: AT });

test('a member is added INVITED with a normalised address and joins on the first sign-in only', (t) => {
  const snapshot = run('LIVE', [
    { type: 'ADD_MEMBER', userId: 'usr_a', email: ' Ana@Acme.Example ', role: 'OWNER', at: AT },
    { type: 'MEMBER_SIGNED_IN', userId: 'usr_a', at: LATER },
    { type: 'MEMBER_SIGNED_IN', userId: 'usr_a', at: '2026-11-24T00:00:00.000Z' },
  ]);
  t.deepEqual(snapshot.context.users, [{ userId: 'usr_a', email: 'ana@acme.example', role: 'OWNER', status: 'ACTIVE', invitedAt: AT, joinedAt: LATER }]);
});

test('the last Owner is neither removed nor demoted; with a second Owner, either may go', (t) => {
  const one = run('LIVE', [owner('usr_a'), { type: 'ADD_MEMBER', userId: 'usr_m', email: 'm@acme.example', role: 'MANAGER', at: AT }]);
  const users = one.context.users!;
  t.is(teamRefusal(users, { type: 'REMOVE_MEMBER', userId: 'usr_a', at: AT }), 'LAST_OWNER');
  t.is(teamRefusal(users, { type: 'CHANGE_ROLE', userId: 'usr_a', role: 'CASHIER', at: AT }), 'LAST_OWNER');
  t.is(teamRefusal(users, { type: 'CHANGE_ROLE', userId: 'usr_a', role: 'OWNER', at: AT }), null, 'staying an Owner is no loss');
  t.is(teamRefusal(users, { type: 'REMOVE_MEMBER', userId: 'usr_m', at: AT }), null);
  t.is(teamRefusal(users, { type: 'REMOVE_MEMBER', userId: 'usr_x', at: AT }), 'MEMBER_NOT_FOUND');
  t.is(teamRefusal(users, { type: 'ADD_MEMBER', userId: 'usr_y', email: 'M@acme.example', role: 'CASHIER', at: AT }), 'MEMBER_EXISTS');
  // The machine takes no refused change, however it arrives.
  t.false(one.can({ type: 'REMOVE_MEMBER', userId: 'usr_a', at: AT }));

  const two = run('LIVE', [owner('usr_a'), owner('usr_b'), { type: 'REMOVE_MEMBER', userId: 'usr_a', at: LATER }]);
  t.deepEqual(
    two.context.users!.map((user: MerchantUser) => user.userId),
    ['usr_b'],
  );
  t.is(teamRefusal(two.context.users!, { type: 'REMOVE_MEMBER', userId: 'usr_b', at: LATER }), 'LAST_OWNER');
  t.deepEqual(applyTeamEvent(two.context.users!, { type: 'REMOVE_MEMBER', userId: 'usr_b', at: LATER }), two.context.users);
});

test('a sandbox account keeps no team', (t) => {
  const sandbox = run('SANDBOX', []);
  t.false(sandbox.can(owner('usr_a')));
  t.is(run('SANDBOX', [owner('usr_a')]).context.users, undefined);
});

test('the team survives a persisted round trip through JSON', (t) => {
  const actor = createActor(merchantMachine, { input: input('LIVE') }).start();
  actor.send(owner('usr_a'));
  const persisted = JSON.parse(JSON.stringify(actor.getPersistedSnapshot(), (_, value) => (typeof value === 'bigint' ? value.toString() : value)));
  const restored = createActor(merchantMachine, { snapshot: persisted, input: input('LIVE') }).start();
  t.deepEqual(restored.getSnapshot().context.users, actor.getSnapshot().context.users);
  t.false(restored.getSnapshot().can({ type: 'REMOVE_MEMBER', userId: 'usr_a', at: LATER }));
});
