/**
 * Model-based test paths: a machine is the model, `xstate/graph` walks it, and each path
 * it finds is replayed on the real actor kind (test/support/model-runner.ts). The walk
 * goes through `getShortestPaths` (one shortest path to every abstract state) and
 * `getAdjacencyMap` (every edge out of those states); from them we keep the shortest path
 * to each state node and through each transition of the machine, so that a state or a
 * guarded branch nobody reaches shows up as a coverage failure, not as silence.
 *
 * The walk offers an event only where the actor would take it: the kind's `check()` finds
 * nothing to refuse and the machine's `can()` is true. Delayed transitions (`after`) are
 * offered as their `xstate.after.*` events; the runner delivers them by moving the test
 * clock to the timer row the runtime wrote.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import type { ActorKind } from '../../actors/index.js';
import { creationInput } from '../../actors/runtime/turn.js';
import { documentedEmits, judgeStep, type DocumentTable } from './model-document.js';
import { AFTER_PREFIX, Stepper, eventLabel, isTimerEvent, stableJson, stateName, timerEvents, type Action, type Stepped } from './model-machine.js';

export { sample } from './model-machine.js';

/** One way the actor can be created: the creating message, and the id it is sent to. */
export interface Variant {
  name: string;
  id: string;
  create: EventObject & Record<string, unknown>;
}

export interface MachineModel {
  /** The machine's name in test titles. */
  name: string;
  kind: ActorKind;
  variants: readonly Variant[];
  /** The concrete events offered in `snapshot`: one or more per event type, one per guard branch worth reaching. */
  events(snapshot: AnyMachineSnapshot): EventObject[];
  /**
   * What tells two states apart for the walk: the state value and the part of the context
   * the guards read. It must take finitely many values over every path.
   */
  abstract(snapshot: AnyMachineSnapshot): unknown;
  /** The status the document (or, without one, the machine) gives a snapshot. */
  statusOf(snapshot: AnyMachineSnapshot): string;
  /** Where the view shows that status; absent when the view shows none (a one-state machine). */
  viewStatus?(view: Record<string, unknown>): unknown;
  document?: DocumentTable;
  /** Transitions no accepted event reaches, each with the reason; the coverage test holds this list to account. */
  unreachable?: Readonly<Record<string, string>>;
}

export interface ModelStep extends Stepped {
  /** The creating message for the first step, then the event of each step. */
  event: EventObject;
  before: AnyMachineSnapshot | null;
}

export interface ModelPath {
  variant: Variant;
  steps: ModelStep[];
  title: string;
}

/** The input the kind gives its machine for a creating message, as the runtime computes it. */
export function inputOf(kind: ActorKind, variant: Variant): unknown {
  return creationInput(kind, variant.create, variant.id);
}

/** Whether the actor takes `event` in `snapshot`, as the runtime decides before a turn; a due timer skips the kind's check. */
export function accepts(kind: ActorKind) {
  return (snapshot: AnyMachineSnapshot, event: EventObject): boolean => {
    if (isTimerEvent(event)) return snapshot.can(event);
    return !kind.createdBy.includes(event.type) && !kind.check?.(snapshot, event) && snapshot.can(event);
  };
}

/** Replays a variant's events on the machine alone, step by step. */
export function modelSteps(model: MachineModel, variant: Variant, events: readonly EventObject[]): ModelStep[] {
  const stepper = new Stepper(model.kind.machine);
  const steps: ModelStep[] = [{ event: variant.create, before: null, ...stepper.initial(inputOf(model.kind, variant)) }];
  for (const event of events) {
    const before = steps.at(-1)!.after;
    steps.push({ event, before, ...stepper.next(before, event) });
  }
  return steps;
}

/** Event types the machine names that have no sample: the walk would offer them bare, and their guards would read nothing. */
export function missingSamples(model: MachineModel, snapshots: Iterable<AnyMachineSnapshot>): string[] {
  const offered = new Set<string>();
  for (const snapshot of snapshots) for (const event of model.events(snapshot)) offered.add(event.type);
  return (model.kind.machine.events as string[]).filter((type) => !type.startsWith(AFTER_PREFIX) && !model.kind.createdBy.includes(type) && !offered.has(type));
}

interface Candidate {
  variant: Variant;
  events: EventObject[];
}

/**
 * The shortest path to every state node, through every transition, to every kind of effect,
 * taking every sample event and, with a document, meeting every row of its table, over
 * every variant; without paths another one contains.
 */
export function generatePaths(model: MachineModel): ModelPath[] {
  const machine = model.kind.machine;
  const stepper = new Stepper(machine);
  const toNode = new Map<string, Candidate>();
  const through = new Map<string, Candidate>();
  // With a document: the shortest path meeting each row of its table, whether or not the row changes the state.
  const meeting = new Map<string, Candidate>();
  // Every kind of effect the machine queues (a domain event, a tell of one event type, a custom effect), once.
  const queuing = new Map<string, Candidate>();
  // Every sample the actor takes somewhere (samples of one type are labelled apart), once.
  const sending = new Map<string, Candidate>();
  const offer = (best: Map<string, Candidate>, id: string, candidate: Candidate) => {
    const known = best.get(id);
    if (!known || known.events.length > candidate.events.length) best.set(id, candidate);
  };
  const explored: AnyMachineSnapshot[] = [];

  for (const variant of model.variants) {
    const input = inputOf(model.kind, variant);
    const options = {
      input,
      events: (snapshot: AnyMachineSnapshot) => [...model.events(snapshot), ...timerEvents(snapshot)],
      serializeState: (snapshot: AnyMachineSnapshot) => stableJson(model.abstract(snapshot)),
      serializeEvent: (event: EventObject) => stableJson(event),
      filterEvents: accepts(model.kind),
      limit: 200_000,
    };
    const keyOf = options.serializeState;
    // Each path's steps open with the `xstate.init` of the initial state: its events are the rest.
    const shortest = new Map(getShortestPaths(machine, options).map((path) => [keyOf(path.state), path.steps.slice(1).map((step) => step.event)]));
    const initial = { event: variant.create, before: null, ...stepper.initial(input) };
    for (const id of initial.transitions) offer(through, id, { variant, events: [] });
    for (const effect of effectsOf(initial.actions)) offer(queuing, effect, { variant, events: [] });
    const row = documentRowOf(model, initial);
    if (row) offer(meeting, row, { variant, events: [] });
    for (const [key, { state, transitions }] of Object.entries(getAdjacencyMap(machine, options))) {
      const base = shortest.get(key);
      if (!base) throw new Error(`${model.name}: no shortest path to ${key}`);
      explored.push(state);
      for (const node of state._nodes) offer(toNode, node.id, { variant, events: base });
      for (const { event } of Object.values(transitions) as Array<{ event: EventObject }>) {
        const step = { event, before: state, ...stepper.next(state, event) };
        const candidate = { variant, events: [...base, event] };
        for (const id of step.transitions) offer(through, id, candidate);
        for (const effect of effectsOf(step.actions)) offer(queuing, effect, candidate);
        offer(sending, eventLabel(event), candidate);
        const row = documentRowOf(model, step);
        if (row) offer(meeting, row, candidate);
      }
    }
  }

  const missing = missingSamples(model, explored);
  if (missing.length > 0) throw new Error(`${model.name}: no sample events for ${missing.join(', ')}`);
  return titled(
    model,
    withoutPrefixes([...toNode.values(), ...through.values(), ...meeting.values(), ...queuing.values(), ...sending.values()]).map((candidate) => ({
      variant: candidate.variant,
      steps: modelSteps(model, candidate.variant, candidate.events),
      title: '',
    })),
  );
}

/** The effects among a step's actions, by kind: `xstate.emit ORDER_CREATED`, `tell payment CANCEL`, `signalIntent`. */
export function effectsOf(actions: readonly Action[]): string[] {
  return actions.flatMap((action) => {
    const params = (action.params ?? {}) as { event?: EventObject; to?: { kind: string } };
    if (action.type === 'xstate.emit') return [`emit ${params.event?.type}`];
    if (action.type === 'tell') return [`tell ${params.to?.kind} ${params.event?.type}`];
    if (action.type.startsWith('xstate.')) return [];
    return [action.type];
  });
}

function documentRowOf(model: MachineModel, step: ModelStep): string | null {
  if (!model.document) return null;
  return judgeStep(model, step, documentedEmits(model.document, step.actions)).row?.row ?? null;
}

/** Drops paths whose events begin another path of the same variant: that longer path replays them too. */
function withoutPrefixes(candidates: Candidate[]): Candidate[] {
  const keyed = candidates.map((candidate) => ({ candidate, keys: candidate.events.map(stableJson) }));
  keyed.sort((a, b) => b.keys.length - a.keys.length);
  const kept: typeof keyed = [];
  for (const entry of keyed) {
    const contained = kept.some(
      (longer) => longer.candidate.variant === entry.candidate.variant && entry.keys.every((key, index) => longer.keys[index] === key),
    );
    if (!contained) kept.push(entry);
  }
  return kept.map((entry) => entry.candidate);
}

function titled(model: MachineModel, paths: ModelPath[]): ModelPath[] {
  const used = new Map<string, number>();
  return paths.map((path) => {
    const [first, ...rest] = path.steps;
    const route = rest.map((step) => ` -${eventLabel(step.event)}-> ${stateName(step.after.value)}`).join('');
    const base = `${model.name} [${path.variant.name}]: ${stateName(first!.after.value)}${route}`;
    const count = (used.get(base) ?? 0) + 1;
    used.set(base, count);
    return { ...path, title: count === 1 ? base : `${base} #${count}` };
  });
}

/** What a set of paths reaches: the state nodes entered or passed through, and the transitions taken. */
export function coverageOf(paths: readonly ModelPath[]): { nodes: Set<string>; transitions: Set<string> } {
  const nodes = new Set<string>();
  const transitions = new Set<string>();
  for (const step of paths.flatMap((path) => path.steps)) {
    for (const node of step.after._nodes) if (node.parent) nodes.add(node.id);
    for (const id of step.transitions) {
      transitions.add(id);
      // A transient state (left at once by an eventless transition) is reached when its transition is taken.
      nodes.add(id.split('|')[0]!);
    }
  }
  nodes.delete(paths[0]?.steps[0]?.after.machine.root.id ?? '');
  return { nodes, transitions };
}
