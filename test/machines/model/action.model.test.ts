/**
 * Model-based tests of a remediation action on the `action` kind, against document 1's
 * Action status table (with the creation and the approval from Remediation actions, and the
 * codes from the action error table): every row is met by a path run on the kind. Then the
 * final statuses are held still: every event the action knows, sent late, is refused and
 * changes nothing, and no timer is left to change it.
 */
import test from 'ava';
import type { EventObject } from 'xstate';
import { CommandRejectedError, withEffects } from '../../../actors/index.js';
import { actionStatusOf, reportedCode, type ActionContext } from '../../../machines/action/index.js';
import { NEW, type DocumentRow, type DocumentTable } from '../../support/model-document.js';
import type { MachineModel, ModelStep } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { startTestSystem } from '../../support/test-node.js';
import { ACTION_KIND, ACTION_VARIANTS, actionAbstraction, actionEvents, actionSamples, createAction, CREATED_AT } from './action-events.js';

const STATUS = 'document 1, States and transitions, Action status';
const REMEDIATION = 'document 1, Remediation actions';
const CODES = 'document 1, Errors, action error.code values';

const contextOf = (step: ModelStep) => step.after.context as ActionContext;
const codeIs = (code: string) => ({ what: `error.code is ${code}`, check: (step: ModelStep) => contextOf(step).error?.code === code });
const fulfil = (step: ModelStep) => contextOf(step).actionName === 'FULFILL_SAR';
const minutesBetween = (from: string | null, to: string | null) => (Date.parse(to ?? '') - Date.parse(from ?? '')) / 60_000;

const rows: DocumentRow[] = [
  {
    section: REMEDIATION,
    row: 'a plan that needs approval: PENDING_APPROVAL with a 15-minute window',
    from: [NEW],
    by: ['create'],
    to: 'PENDING_APPROVAL',
    emits: [],
    holds: { what: 'approvalExpiresAt is 15 minutes on', check: (step) => minutesBetween(CREATED_AT, contextOf(step).approvalExpiresAt) === 15 },
  },
  { section: REMEDIATION, row: 'a plan that needs none: QUEUED at once', from: [NEW], by: ['create'], to: 'QUEUED', emits: [] },
  { section: REMEDIATION, row: 'approved within the window: QUEUED', from: ['PENDING_APPROVAL'], by: ['APPROVE'], to: 'QUEUED', emits: [] },
  {
    section: STATUS,
    row: 'approval rejected: BLOCKED APPROVAL_REJECTED',
    from: ['PENDING_APPROVAL'],
    by: ['REJECT'],
    to: 'BLOCKED',
    emits: [],
    holds: codeIs('APPROVAL_REJECTED'),
  },
  {
    section: STATUS,
    row: 'not approved within 15 minutes: BLOCKED APPROVAL_EXPIRED',
    from: ['PENDING_APPROVAL'],
    by: ['after approvalWindow', 'APPROVE'],
    to: 'BLOCKED',
    emits: [],
    holds: {
      what: 'error.code is APPROVAL_EXPIRED, finished 15 minutes after creation',
      check: (step) => contextOf(step).error?.code === 'APPROVAL_EXPIRED' && minutesBetween(CREATED_AT, contextOf(step).finishedAt) === 15,
    },
  },
  {
    section: STATUS,
    row: 'cancelled by Peer-side staff: BLOCKED ACTION_CANCELED',
    from: ['PENDING_APPROVAL'],
    by: ['CANCEL'],
    to: 'BLOCKED',
    emits: [],
    holds: codeIs('ACTION_CANCELED'),
  },
  {
    section: `${STATUS} (the runner picks a queued action up)`,
    row: 'picked up in time: RUNNING',
    from: ['QUEUED'],
    by: ['STARTED'],
    to: 'RUNNING',
    emits: [],
    holds: { what: 'startedAt set', check: (step) => contextOf(step).startedAt !== null },
  },
  {
    section: `${STATUS}; ${CODES}`,
    row: 'expired before running: FAILED ACTION_EXPIRED',
    from: ['QUEUED'],
    by: ['after pickUpDeadline', 'STARTED'],
    to: 'FAILED',
    emits: [],
    holds: codeIs('ACTION_EXPIRED'),
  },
  {
    section: `${STATUS}; ${CODES}`,
    row: 'ran and did not complete: FAILED with the table code, else REMEDIATION_FAILED',
    from: ['QUEUED', 'RUNNING'],
    by: ['ACTION_FAILED'],
    to: 'FAILED',
    emits: [],
    holds: {
      what: 'error.code is the reported one when the table lists it for the action, else REMEDIATION_FAILED',
      check: (step) => {
        const event = step.event as EventObject & { code: string };
        const expected = event.code === 'SOMETHING_ELSE' ? 'REMEDIATION_FAILED' : event.code;
        return contextOf(step).error?.code === expected && reportedCode(contextOf(step).actionName, event.code) === expected;
      },
    },
  },
  {
    section: `${STATUS} ("A fulfil can stay RUNNING up to 30 minutes"); ${CODES}`,
    row: 'a fulfil still pending at 30 minutes: FAILED FULFILL_TIMEOUT',
    from: ['RUNNING'],
    by: ['after runDeadline'],
    to: 'FAILED',
    emits: [],
    when: fulfil,
    holds: {
      what: 'error.code is FULFILL_TIMEOUT, finished 30 minutes after it started',
      check: (step) => contextOf(step).error?.code === 'FULFILL_TIMEOUT' && minutesBetween(contextOf(step).startedAt, contextOf(step).finishedAt) === 30,
    },
  },
  {
    section: `${STATUS} (ran and did not complete: our 15-minute deadline); ${CODES}`,
    row: 'a recreate or extend unfinished at 15 minutes: FAILED NEEDS_MANUAL_REVIEW',
    from: ['RUNNING'],
    by: ['after runDeadline'],
    to: 'FAILED',
    emits: [],
    when: (step) => !fulfil(step),
    holds: {
      what: 'error.code is NEEDS_MANUAL_REVIEW, finished 15 minutes after it started',
      check: (step) => contextOf(step).error?.code === 'NEEDS_MANUAL_REVIEW' && minutesBetween(contextOf(step).startedAt, contextOf(step).finishedAt) === 15,
    },
  },
  {
    section: STATUS,
    row: 'completed: SUCCEEDED with the result',
    from: ['RUNNING'],
    by: ['ACTION_SUCCEEDED'],
    to: 'SUCCEEDED',
    emits: [],
    holds: {
      what: 'result set, error null, finishedAt set',
      check: (step) => contextOf(step).result !== null && contextOf(step).error === null && contextOf(step).finishedAt !== null,
    },
  },
];

const document: DocumentTable = { events: [], rows, beyond: {} };

const model: MachineModel = {
  name: 'action',
  kind: ACTION_KIND,
  variants: ACTION_VARIANTS,
  events: actionEvents,
  abstract: actionAbstraction,
  statusOf: (snapshot) => actionStatusOf(snapshot.value),
  viewStatus: (view) => view.status,
  document,
};

modelTests(test, model);

/** Ways to each final status, on the kind: the creating message, the events, and how far the clock moves after them. */
const ENDINGS = [
  { name: 'SUCCEEDED', create: createAction({ actionName: 'EXTEND', needsApproval: false }), events: ['STARTED', 'ACTION_SUCCEEDED'], advanceMs: 0 },
  { name: 'BLOCKED by staff', create: createAction({ actionName: 'RECREATE', needsApproval: true }), events: ['REJECT'], advanceMs: 0 },
  { name: 'BLOCKED by the window', create: createAction({ actionName: 'RECREATE', needsApproval: true }), events: [], advanceMs: 15 * 60_000 },
  {
    name: 'FAILED by the runner',
    create: createAction({ actionName: 'FULFILL_SAR', needsApproval: false, txId: 't1' }),
    events: ['ACTION_FAILED'],
    advanceMs: 0,
  },
  {
    name: 'FAILED by the run deadline',
    create: createAction({ actionName: 'FULFILL_SAR', needsApproval: false, txId: 't1' }),
    events: ['STARTED'],
    advanceMs: 30 * 60_000,
  },
] as const;

/** The runner stands in as a no-op: these tests drive its reports by hand. */
const KIND = withEffects(ACTION_KIND, { runAction: async () => {} });

for (const ending of ENDINGS) {
  test(`action: ${ending.name} is final: every late event is refused and nothing changes, even hours later`, async (t) => {
    const { system, clock } = await startTestSystem({ kinds: [KIND] });
    const id = `act_final_${ending.name.replaceAll(' ', '_')}`;
    const samples = actionSamples(ending.create.actionName);
    const first = (type: string) => samples.find((event) => event.type === type)!;
    await system.ask(KIND, id, ending.create);
    for (const type of ending.events) await system.ask(KIND, id, first(type));
    await clock.advance(ending.advanceMs);
    const settled = await system.documents(ACTION_KIND.name).findOne({ _id: id });
    t.true(['SUCCEEDED', 'BLOCKED', 'FAILED'].includes(String(settled!.view.status)), `ended ${String(settled!.view.status)}`);
    t.deepEqual(settled!.timers, [], 'no timer is left to move it');

    for (const late of samples) {
      const refused = await t.throwsAsync(system.ask(KIND, id, late), { instanceOf: CommandRejectedError }, late.type);
      t.is(refused.code, 'EVENT_NOT_ACCEPTED', late.type);
    }
    await clock.advance(24 * 60 * 60_000);
    const after = await system.documents(ACTION_KIND.name).findOne({ _id: id });
    t.is(after!.version, settled!.version, 'nothing was written after it ended');
    t.deepEqual(after!.view, settled!.view);
  });
}
