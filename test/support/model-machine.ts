/**
 * The machine alone, for model-based tests: xstate's pure transition with what it did
 * recorded (actions as the runtime collects them, transitions taken as xstate's inspection
 * reports them), the ids of transitions and state nodes a path set must cover, and how
 * events and states are named in test titles.
 */
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { MachineSteps, type Action } from '../../actors/runtime/machine-steps.js';

export type { Action };

/** What one step of the machine did. */
export interface Stepped {
  after: AnyMachineSnapshot;
  /** The transitions taken, eventless ones included (`<source id>|<event type>|<index>`). */
  transitions: string[];
  actions: Action[];
}

export const AFTER_PREFIX = 'xstate.after.';

export const isTimerEvent = (event: EventObject): boolean => event.type.startsWith(AFTER_PREFIX);

/** `after window` for `xstate.after.window.payment.CREATED`: the delay's name, as the machine's `delays` spells it. */
export const delayName = (event: EventObject): string => event.type.slice(AFTER_PREFIX.length).split('.')[0]!;

/** JSON that takes bigints (the machines' money) as decimal strings. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? `${field}n` : field));
}

const labels = new WeakMap<EventObject, string>();

/** Names a sample event for test titles (`APPLY_SETTLEMENT(in full)`): several samples of one type reach different branches. */
export function sample<E extends EventObject>(label: string, event: E): E {
  labels.set(event, label);
  return event;
}

export function eventLabel(event: EventObject): string {
  if (isTimerEvent(event)) return `after ${delayName(event)}`;
  const label = labels.get(event);
  return label ? `${event.type}(${label})` : event.type;
}

/** `CREATED.SIGNALLING` for `{ CREATED: 'SIGNALLING' }`. */
export function stateName(value: unknown): string {
  if (typeof value === 'string') return value;
  return Object.entries(value as Record<string, unknown>)
    .map(([key, inner]) => `${key}.${stateName(inner)}`)
    .join(',');
}

/** The `xstate.after.*` events of the delayed transitions of a snapshot's states: the samples never name them. */
export function timerEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  return snapshot._nodes.flatMap((node) => [...node.transitions.keys()].filter((type) => type.startsWith(AFTER_PREFIX)).map((type) => ({ type })));
}

/** Every transition of the machine, by id: what a set of paths has to cover. */
export function allTransitions(machine: AnyStateMachine): string[] {
  const ids: string[] = [];
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    for (const [type, list] of node.transitions) list.forEach((_, index) => ids.push(`${node.id}|${type}|${index}`));
    (node.always ?? []).forEach((_, index) => ids.push(`${node.id}|always|${index}`));
  }
  return ids;
}

export function allStateNodes(machine: AnyStateMachine): string[] {
  return getStateNodes(machine.root).map((node) => node.id);
}

interface TransitionLike {
  source: { id: string; transitions: Map<string, unknown[]>; always?: unknown[] };
  eventType: string;
}

function transitionId(transition: TransitionLike): string {
  const { source, eventType } = transition;
  const index = source.transitions.get(eventType)?.indexOf(transition) ?? -1;
  if (index >= 0) return `${source.id}|${eventType}|${index}`;
  const always = source.always?.indexOf(transition) ?? -1;
  if (always >= 0) return `${source.id}|always|${always}`;
  throw new Error(`a transition of ${source.id} on ${eventType} is neither in its transitions nor in its always list`);
}

/**
 * xstate's pure transition as the runtime steps it (MachineSteps), recording also the
 * transitions taken, which xstate reports to the system's inspection hook.
 */
export class Stepper {
  readonly #steps: MachineSteps;
  #transitions: string[] = [];

  constructor(readonly machine: AnyStateMachine) {
    this.#steps = new MachineSteps(machine, (event) => {
      if (event.type === '@xstate.microstep') for (const transition of event._transitions) this.#transitions.push(transitionId(transition));
    });
  }

  initial(input: unknown): Stepped {
    return this.#record(() => this.#steps.initial(input));
  }

  next(snapshot: AnyMachineSnapshot, event: EventObject): Stepped {
    return this.#record(() => this.#steps.next(snapshot, event));
  }

  #record(run: () => [AnyMachineSnapshot, Action[]]): Stepped {
    this.#transitions = [];
    const [after, actions] = run();
    return { after, actions, transitions: this.#transitions };
  }
}
