/**
 * Replays a model path (test/support/model-paths.ts) on the real actor kind: an actor
 * system with the embedded store, the in-process transport and a test clock, the kind's
 * effects replaced by handlers that only note they ran, and other actors stood in for by
 * the transport. After every step it compares the actor with the machine: the stored state
 * and view, the status the view shows, the effects the turn queued (domain events, tells,
 * custom effects, in order), the timers left armed, and the document's row for the step.
 */
import type { ExecutionContext } from 'ava';
import { createMachine, type AnyMachineSnapshot, type EventObject } from 'xstate';
import {
  EmbeddedStore,
  EmbeddedTransport,
  MemoryBus,
  TestClock,
  decode,
  defineKind,
  type ActorAddress,
  type ActorDocument,
  type ActorKind,
  type ActorMessage,
  type DomainEvent,
  type EventBus,
  type MessageHost,
  type OutboxEntry,
  type Transport,
} from '../../actors/index.js';
import { interceptedStore } from './intercepted-store.js';
import { documentedEmits, judgeStep } from './model-document.js';
import { Stepper, isTimerEvent, stableJson, stateName, type Action } from './model-machine.js';
import type { MachineModel, ModelPath, ModelStep } from './model-paths.js';
import { startTestSystem } from './test-node.js';

/** The custom effects a machine names: plain functions among its actions, which the runtime hands to the kind's handlers. */
export function effectNames(kind: ActorKind): string[] {
  const actions = (kind.machine.implementations.actions ?? {}) as Record<string, unknown>;
  return Object.entries(actions)
    .filter(([name, action]) => name !== 'tell' && typeof action === 'function' && !('resolve' in action))
    .map(([name]) => name);
}

/** How an outbox entry, or the action it came from, reads in a comparison. */
function entryLabel(entry: OutboxEntry): string {
  const params = decode<Record<string, unknown>>(entry.params);
  if (entry.type === 'event') return `event ${String(params.type)}`;
  if (entry.type === 'tell') return tellLabel(params);
  return `effect ${entry.type}`;
}

function actionLabel(action: Action, effects: readonly string[]): string | null {
  if (action.type === 'xstate.emit') return `event ${(action.params as { event: EventObject }).event.type}`;
  if (action.type === 'tell') return tellLabel(action.params as Record<string, unknown>);
  return effects.includes(action.type) ? `effect ${action.type}` : null;
}

function tellLabel(params: Record<string, unknown>): string {
  const { to, event } = params as { to: ActorAddress; event: EventObject };
  return `tell ${to.kind}:${to.id} ${event.type}`;
}

/** Timer rows as the machine arms and cancels them, by id: the expected `timers` of the document, by event type. */
function armedAfter(armed: Map<string, string>, actions: readonly Action[]): void {
  for (const action of actions) {
    const params = (action.params ?? {}) as { delay?: unknown; id?: unknown; event?: EventObject; sendId?: unknown };
    if (action.type === 'xstate.raise' && typeof params.delay === 'number') armed.set(String(params.id), params.event!.type);
    if (action.type === 'xstate.cancel') armed.delete(String(params.sendId));
  }
}

const plain = (value: unknown): unknown => JSON.parse(stableJson(value));

/** Everything but the actor under test answers through here: its tells are noted and taken. */
class StandInTransport implements Transport {
  readonly adapter = 'embedded';
  readonly told: Array<{ to: ActorAddress; message: ActorMessage }> = [];
  readonly #inner = new EmbeddedTransport();

  constructor(private readonly self: ActorAddress) {}

  start(host: MessageHost) {
    return this.#inner.start(host);
  }

  async send(address: ActorAddress, message: ActorMessage, timeoutMs: number): Promise<unknown> {
    if (address.kind === this.self.kind && address.id === this.self.id) return this.#inner.send(address, message, timeoutMs);
    this.told.push({ to: address, message });
    return undefined;
  }

  ownedShards() {
    return this.#inner.ownedShards();
  }

  fence() {
    return this.#inner.fence();
  }

  status() {
    return this.#inner.status();
  }

  stop() {
    return this.#inner.stop();
  }
}

/** The in-process bus, noting what is published to it. */
class NotingBus implements EventBus {
  readonly adapter = 'memory';
  readonly published: DomainEvent[] = [];
  readonly #inner = new MemoryBus();

  async publish(event: DomainEvent) {
    this.published.push(event);
    await this.#inner.publish(event);
  }

  consume(...args: Parameters<EventBus['consume']>) {
    return this.#inner.consume(...args);
  }

  status() {
    return this.#inner.status();
  }

  close() {
    return this.#inner.close();
  }
}

/** A kind that stands for the actors the machine tells; the transport answers for them, so it never runs. */
function standInKind(name: string): ActorKind {
  return defineKind({ name, machine: createMachine({ id: name }), machineVersion: 1, createdBy: [], view: () => ({}) });
}

async function startActorSystem(model: MachineModel, path: ModelPath) {
  const self = { kind: model.kind.name, id: path.variant.id };
  const effects = effectNames(model.kind);
  const ran: string[] = [];
  const kind: ActorKind = {
    ...model.kind,
    effects: Object.fromEntries(effects.map((name) => [name, async (_params: unknown, context: { effectId: string }) => void ran.push(context.effectId)])),
  };
  const others = new Set(
    path.steps.flatMap((step) => step.actions.filter((action) => action.type === 'tell').map((action) => (action.params as { to: ActorAddress }).to.kind)),
  );
  others.delete(self.kind);
  // Every document this actor's turns wrote, in order: each turn's outbox entries are read from its own write.
  const writes: ActorDocument[] = [];
  const note = (doc: ActorDocument) => doc.kind === self.kind && doc._id === self.id && writes.push(structuredClone(doc));
  const store = interceptedStore(new EmbeddedStore(), (_spec, collection) => ({
    insertOne: async (doc) => {
      await collection.insertOne(doc);
      note(doc as ActorDocument);
    },
    replaceOne: async (filter, doc) => {
      const replaced = await collection.replaceOne(filter, doc);
      if (replaced) note(doc as ActorDocument);
      return replaced;
    },
  }));
  const transport = new StandInTransport(self);
  const bus = new NotingBus();
  const clock = new TestClock();
  const { system } = await startTestSystem({ kinds: [kind, ...[...others].map(standInKind)], store, bus, clock, transport });
  return { self, system, clock, transport, bus, writes, ran, effects };
}

type Harness = Awaited<ReturnType<typeof startActorSystem>>;

async function storedDocument(harness: Harness): Promise<ActorDocument> {
  const doc = await harness.system.documents(harness.self.kind).findOne({ _id: harness.self.id });
  if (!doc) throw new Error(`${harness.self.kind}:${harness.self.id} has no document`);
  return doc;
}

/**
 * Delivers a timer step the way time does: the clock moves to the due time of the row
 * the machine's `after` armed, and every row due by then fires, in the order they fall
 * due (the runtime's timer pass). The machine is given the same firings, so rows due
 * earlier (a poll before the window) are part of the expectation, not a surprise.
 */
async function fireTimer(harness: Harness, stepper: Stepper, expected: AnyMachineSnapshot, step: ModelStep, armed: Map<string, string>) {
  const rows = (await storedDocument(harness)).timers.map((row) => ({ ...row, type: decode<EventObject>(row.event).type }));
  const target = rows.find((row) => row.type === step.event.type);
  if (!target) throw new Error(`no timer row for ${step.event.type}; armed: ${rows.map((row) => row.type).join(', ') || 'none'}`);
  const due = rows.filter((row) => row.dueAt <= target.dueAt).sort((a, b) => a.dueAt - b.dueAt);
  await harness.clock.advance(Math.max(0, target.dueAt - harness.clock.now()));
  let snapshot = expected;
  const actions: Action[] = [];
  const earlier: string[] = [];
  for (const row of due) {
    // Cancelled by a firing before it (its state was left): the runtime finds its row gone.
    if (!armed.has(row.id)) continue;
    armed.delete(row.id);
    const next = stepper.next(snapshot, decode<EventObject>(row.event));
    armedAfter(armed, next.actions);
    snapshot = next.after;
    actions.push(...next.actions);
    if (row !== target) earlier.push(row.type);
  }
  return { snapshot, actions, earlier };
}

export async function runPath(t: ExecutionContext, model: MachineModel, path: ModelPath): Promise<void> {
  const harness = await startActorSystem(model, path);
  t.teardown(() => harness.system.drain());
  const { self, system } = harness;
  const stepper = new Stepper(model.kind.machine);
  const armed = new Map<string, string>();
  const entries: OutboxEntry[] = [];
  let expected: AnyMachineSnapshot | null = null;

  for (const [index, step] of path.steps.entries()) {
    const where = `step ${index} (${index === 0 ? 'create' : step.event.type}) of ${path.title}`;
    const written = harness.writes.length;
    let actions: readonly Action[] = step.actions;
    if (expected !== null && isTimerEvent(step.event)) {
      const fired = await fireTimer(harness, stepper, expected, step, armed);
      if (fired.earlier.length > 0) t.log(`${where}: fired before it, as due earlier: ${fired.earlier.join(', ')}`);
      expected = fired.snapshot;
      actions = fired.actions;
    } else {
      // The creating message first, then each event, as the gateway or another actor sends it.
      await system.askAt(self, step.event, { messageId: `model-${index}` });
      expected = step.after;
      armedAfter(armed, step.actions);
    }
    t.deepEqual(expected.value, step.after.value, `${where}: the path's state, once every due timer fired`);

    const doc = await storedDocument(harness);
    t.deepEqual(decode<{ value: unknown }>(doc.snapshot).value, expected.value, `${where}: stored state`);
    t.deepEqual(plain(doc.view), plain(model.kind.view(expected, self.id)), `${where}: stored view`);
    if (model.viewStatus) t.is(model.viewStatus(doc.view), model.statusOf(expected), `${where}: the status the view shows for ${stateName(expected.value)}`);

    // An entry stays in the stored outbox until it has run, so a step of several writes (timers due together) shows it in each: count it once.
    const queued = [
      ...new Map(
        harness.writes
          .slice(written)
          .flatMap((write) => write.outbox)
          .map((entry) => [entry.id, entry]),
      ).values(),
    ].filter((entry) => !entries.some((seen) => seen.id === entry.id));
    entries.push(...queued);
    t.deepEqual(
      queued.map(entryLabel),
      actions.map((action) => actionLabel(action, harness.effects)).filter((label) => label !== null),
      `${where}: effects queued`,
    );
    t.deepEqual(doc.timers.map((row) => decode<EventObject>(row.event).type).sort(), [...armed.values()].sort(), `${where}: timers armed`);

    if (model.document) {
      const emitted = queued.filter((entry) => entry.type === 'event').map((entry) => String(decode<{ type: string }>(entry.params).type));
      const judgement = judgeStep(
        model,
        { ...step, after: expected },
        emitted.filter((type) => model.document!.events.includes(type)),
      );
      t.deepEqual(judgement.problems, [], `${where}: the document's table`);
      if (judgement.expected) t.deepEqual(documentedEmits(model.document, actions), [...judgement.expected], `${where}: the machine's events`);
    }
  }

  // Every queued effect ran once the actor went quiet: events reached the bus, tells their targets, effects their handlers.
  await system.effectsIdle();
  const ids = (type: (entry: OutboxEntry) => boolean) => entries.filter(type).map((entry) => entry.id);
  t.deepEqual(
    harness.bus.published.filter((event) => event.actor.kind === self.kind && event.actor.id === self.id).map((event) => event.id),
    ids((entry) => entry.type === 'event'),
    'domain events published',
  );
  t.deepEqual(
    harness.transport.told.map((tell) => tell.message.id),
    ids((entry) => entry.type === 'tell'),
    'tells delivered',
  );
  t.deepEqual([...harness.ran].sort(), ids((entry) => harness.effects.includes(entry.type)).sort(), 'effects run');
}
