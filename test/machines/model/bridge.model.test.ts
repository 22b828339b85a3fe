/**
 * Model-based tests of the bridge machine on the `bridge` kind, against the table of
 * docs/bridges.md (document 1 names the PAYMENT_BRIDGE_* events and leaves the rest "not
 * shown"): each status announced as it is entered, PENDING then SUBMITTED then COMPLETED,
 * or (PENDING, SUBMITTED) once per try, a failed try waiting its backoff as PENDING, and
 * after the third failure FAILED with the USDC going back to the merchant's Base wallet.
 * A report of an earlier try is one the machine refuses, so the walk never offers it: the
 * tests below send such reports to the real kind and find nothing changed, and hold the
 * backoff to its 1 then 2 minutes on the actor's clock.
 */
import test, { type ExecutionContext } from 'ava';
import { type EventObject, setup } from 'xstate';
import { CommandRejectedError, defineKind, MemoryBus, TestClock, decode, type ActorDocument, type DomainEvent } from '../../../actors/index.js';
import { bridgeStatusOf, MAX_ATTEMPTS, RETRY_BASE_MS, type BridgeContext, type BridgeEvent } from '../../../machines/bridge/index.js';
import { NEW, type DocumentTable } from '../../support/model-document.js';
import { eventLabel } from '../../support/model-machine.js';
import type { MachineModel, ModelStep } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { startTestSystem } from '../../support/test-node.js';
import { BRIDGE_KIND, BRIDGE_USDC, BRIDGE_VARIANTS, bridgeAbstraction, bridgeEvents, MERCHANT_BASE_WALLET, reportsOf } from './bridge-events.js';

const DOC = 'docs/bridges.md';
const BRIDGE_EVENTS = ['PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_SUBMITTED', 'PAYMENT_BRIDGE_COMPLETED', 'PAYMENT_BRIDGE_FAILED'];

const after = (step: ModelStep) => step.after.context as BridgeContext;
const before = (step: ModelStep) => step.before!.context as BridgeContext;
const failure = (step: ModelStep) => step.event as Extract<BridgeEvent, { type: 'BRIDGE_ATTEMPT_FAILED' }>;

const document: DocumentTable = {
  events: BRIDGE_EVENTS,
  rows: [
    {
      section: `${DOC}, The bridge actor`,
      row: 'a settled payment of a bridged order: PENDING, quoting its first try',
      from: [NEW],
      by: ['create'],
      to: 'PENDING',
      emits: ['PAYMENT_BRIDGE_PENDING'],
      holds: {
        what: 'one try, of the whole net amount, nothing refunded',
        check: (step) => after(step).attempts.length === 1 && after(step).attempts[0]!.usdcAmount === BRIDGE_USDC && after(step).refund === null,
      },
    },
    {
      section: `${DOC}, The bridge actor`,
      row: 'the bridge wallet’s send to the deposit address mined: SUBMITTED',
      from: ['PENDING'],
      by: ['BRIDGE_SENT'],
      to: 'SUBMITTED',
      emits: ['PAYMENT_BRIDGE_SUBMITTED'],
      holds: {
        what: 'the try’s send and its quote recorded, submittedAt set',
        check: (step) => {
          const attempt = after(step).attempts.at(-1)!;
          return attempt.sourceTxHash !== null && attempt.requestId !== null && after(step).submittedAt !== null;
        },
      },
    },
    {
      section: `${DOC}, The bridge actor`,
      row: 'the provider delivered: COMPLETED',
      from: ['SUBMITTED'],
      by: ['BRIDGE_DELIVERED'],
      to: 'COMPLETED',
      emits: ['PAYMENT_BRIDGE_COMPLETED'],
      holds: {
        what: 'destinationTransactionHash, deliveredAmount and completedAt set, no refund',
        check: (step) =>
          after(step).destinationTxHash !== null && after(step).deliveredAmount !== null && after(step).completedAt !== null && after(step).refund === null,
      },
    },
    {
      section: `${DOC}, The retry and refund rule`,
      row: 'a try fails with tries left: it waits its backoff, still PENDING, no event',
      from: ['PENDING', 'SUBMITTED'],
      by: ['BRIDGE_ATTEMPT_FAILED'],
      to: 'PENDING',
      emits: [],
      holds: {
        what: 'RETRYING, fewer than 3 tries, the failure recorded, what came back of it the next try’s amount',
        check: (step) =>
          stateName(step) === 'RETRYING' &&
          after(step).attempts.length < MAX_ATTEMPTS &&
          after(step).failureReason === failure(step).reason &&
          after(step).availableUsdc === (failure(step).returnedUsdc ?? before(step).availableUsdc),
      },
    },
    {
      section: `${DOC}, The retry and refund rule; Events`,
      row: 'the backoff passed: the next try, PENDING announced again',
      from: ['PENDING'],
      by: ['after backoff'],
      to: 'PENDING',
      emits: ['PAYMENT_BRIDGE_PENDING'],
      holds: {
        what: 'one more try, of what came back of the last, started 1 minute after the first failed and 2 after the second',
        check: (step) => {
          const attempts = after(step).attempts;
          const [last, next] = [attempts.at(-2)!, attempts.at(-1)!];
          const wait = RETRY_BASE_MS * 2 ** (attempts.length - 2);
          return (
            attempts.length === before(step).attempts.length + 1 &&
            next.number === attempts.length &&
            next.usdcAmount === before(step).availableUsdc &&
            Date.parse(next.startedAt) - Date.parse(last.endedAt!) === wait
          );
        },
      },
    },
    {
      section: `${DOC}, The retry and refund rule`,
      row: 'the third try fails: FAILED, the USDC going back to the merchant’s Base wallet',
      from: ['PENDING', 'SUBMITTED'],
      by: ['BRIDGE_ATTEMPT_FAILED'],
      to: 'FAILED',
      emits: ['PAYMENT_BRIDGE_FAILED'],
      holds: {
        what: `${MAX_ATTEMPTS} tries, failureReason the last one’s, failedAt set, a refund of what the bridge wallet holds to the merchant’s Base wallet, not yet mined`,
        check: (step) =>
          after(step).attempts.length === MAX_ATTEMPTS &&
          after(step).failureReason === failure(step).reason &&
          after(step).failedAt !== null &&
          after(step).refund?.to === MERCHANT_BASE_WALLET &&
          after(step).refund?.amountUsdc === after(step).availableUsdc &&
          after(step).refund?.txHash === null &&
          stateName(step) === 'FAILED.REFUNDING',
      },
    },
    {
      section: `${DOC}, The bridge actor`,
      row: 'the refund to the merchant’s Base wallet mined: FAILED, REFUNDED, no event',
      from: ['FAILED'],
      by: ['BRIDGE_REFUNDED'],
      to: 'FAILED',
      emits: [],
      holds: {
        what: 'refundTransactionHash set, the refunded amount unchanged',
        check: (step) =>
          stateName(step) === 'FAILED.REFUNDED' && after(step).refund?.txHash !== null && after(step).refund?.amountUsdc === before(step).refund?.amountUsdc,
      },
    },
  ],
  beyond: {},
};

function stateName(step: ModelStep): string {
  const value = step.after.value;
  if (typeof value === 'string') return value;
  const [[parent, child]] = Object.entries(value as Record<string, string>) as [[string, string]];
  return `${parent}.${child}`;
}

const model: MachineModel = {
  name: 'bridge',
  kind: BRIDGE_KIND,
  variants: BRIDGE_VARIANTS,
  events: bridgeEvents,
  abstract: bridgeAbstraction,
  statusOf: (snapshot) => bridgeStatusOf(snapshot.value),
  viewStatus: (view) => view.status,
  document,
};

modelTests(test, model);

/** The bus, noting what it was given: the bridge's PAYMENT_BRIDGE_* events, in order. */
class NotingBus extends MemoryBus {
  readonly published: DomainEvent[] = [];

  override async publish(event: DomainEvent) {
    this.published.push(event);
    await super.publish(event);
  }
}

/** Stands in for the bridge's order, which the bridge tells each status (BRIDGE_UPDATED): it takes them and keeps nothing. */
const orderStandIn = defineKind({
  name: 'order',
  machine: setup({ types: { events: {} as { type: 'OPEN' } | { type: 'BRIDGE_UPDATED' } } }).createMachine({
    id: 'order-stand-in',
    on: { BRIDGE_UPDATED: {} },
  }),
  machineVersion: 1,
  createdBy: ['OPEN'],
  view: () => ({}),
});

/** The bridge kind on an embedded system and a test clock, its effects doing nothing: the reports are the test's to send. */
async function startBridge(t: ExecutionContext) {
  const effects = Object.fromEntries(['quoteBridge', 'sendBridge', 'checkBridge', 'refundBridge'].map((name) => [name, async () => {}]));
  const bus = new NotingBus();
  const clock = new TestClock();
  const { system } = await startTestSystem({ kinds: [{ ...BRIDGE_KIND, effects }, orderStandIn], bus, clock });
  t.teardown(() => system.drain());
  const variant = BRIDGE_VARIANTS[0]!;
  await system.askAt({ kind: 'order', id: String(variant.create.orderId) }, { type: 'OPEN' }, { messageId: 'bridge-model-order' });
  const self = { kind: BRIDGE_KIND.name, id: variant.id };
  let sent = 0;
  const send = (event: EventObject) => system.askAt(self, event, { messageId: `bridge-model-${sent++}` });
  const stored = async (): Promise<ActorDocument> => (await system.documents(self.kind).findOne({ _id: self.id }))!;
  const published = () => bus.published.filter((event) => event.actor.id === self.id).map((event) => event.type);
  await send(variant.create);
  return { clock, send, stored, published, system };
}

type Bridge = Awaited<ReturnType<typeof startBridge>>;

const report = (attempt: number, label: string): BridgeEvent => {
  const event = reportsOf(attempt).find((candidate) => eventLabel(candidate) === `${candidate.type}(${label}, try ${attempt})`);
  if (!event) throw new Error(`no report "${label}" of try ${attempt}`);
  return event;
};

/** Fails the current try, and moves the clock over the backoff the stored timer row asks for, which the test returns. */
async function failAndWait(bridge: Bridge, attempt: number, t: ExecutionContext): Promise<number> {
  await bridge.send(report(attempt, 'given back'));
  const [row] = (await bridge.stored()).timers;
  t.truthy(row, `try ${attempt} failed: a backoff timer armed`);
  const wait = row!.dueAt - bridge.clock.now();
  await bridge.clock.advance(wait - 1);
  t.deepEqual(decode<{ value: unknown }>((await bridge.stored()).snapshot).value, 'RETRYING', `a millisecond before the backoff after try ${attempt}`);
  await bridge.clock.advance(1);
  return wait;
}

const stateOf = async (bridge: Bridge) => decode<{ value: unknown }>((await bridge.stored()).snapshot).value;

test('bridge: the backoff is 1 minute after the first failed try and 2 after the second, on the actor’s clock', async (t) => {
  const bridge = await startBridge(t);
  t.is(await failAndWait(bridge, 1, t), RETRY_BASE_MS);
  t.deepEqual(await stateOf(bridge), { PENDING: 'QUOTING' }, 'try 2 quoting');
  t.is(await failAndWait(bridge, 2, t), 2 * RETRY_BASE_MS);
  t.deepEqual(await stateOf(bridge), { PENDING: 'QUOTING' }, 'try 3 quoting');
  await bridge.send(report(3, 'quoted'));
  await bridge.send(report(3, 'given back'));
  t.deepEqual(await stateOf(bridge), { FAILED: 'REFUNDING' });
  await bridge.system.effectsIdle();
  t.deepEqual(bridge.published(), ['PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_FAILED']);
});

/** Where a later try stands when an earlier try's reports arrive: the reports of the current try that got it there. */
const LATER_TRIES: Array<{ name: string; attempt: number; reports: string[]; value: unknown }> = [
  { name: 'try 2 quoting', attempt: 2, reports: [], value: { PENDING: 'QUOTING' } },
  { name: 'try 2 sending', attempt: 2, reports: ['quoted'], value: { PENDING: 'SENDING' } },
  { name: 'try 2 submitted', attempt: 2, reports: ['quoted', 'sent'], value: { SUBMITTED: 'WATCHING' } },
  { name: 'try 3 submitted', attempt: 3, reports: ['quoted', 'sent'], value: { SUBMITTED: 'WATCHING' } },
];
const STALE = ['quoted', 'sent', 'delivered', 'quote refused', 'given back'];

for (const { name, attempt, reports, value } of LATER_TRIES) {
  test(`bridge: a report of an earlier try, once at ${name}, is refused and changes nothing`, async (t) => {
    const bridge = await startBridge(t);
    for (let earlier = 1; earlier < attempt; earlier++) await failAndWait(bridge, earlier, t);
    for (const label of reports) await bridge.send(report(attempt, label));
    t.deepEqual(await stateOf(bridge), value);
    await bridge.system.effectsIdle();
    const kept = await bridge.stored();
    const events = bridge.published();
    for (let earlier = 1; earlier < attempt; earlier++) {
      for (const label of STALE) {
        const error = await t.throwsAsync(bridge.send(report(earlier, label)), { instanceOf: CommandRejectedError }, `${label} of try ${earlier}`);
        t.is(error?.code, 'EVENT_NOT_ACCEPTED', `${label} of try ${earlier}`);
      }
    }
    await bridge.system.effectsIdle();
    const now = await bridge.stored();
    t.deepEqual(decode(now.snapshot), decode(kept.snapshot), 'the snapshot, context and all');
    t.deepEqual(now.view, kept.view, 'the view');
    t.deepEqual(bridge.published(), events, 'no PAYMENT_BRIDGE_* event');
  });
}
