/**
 * The chart graph: a machine's states and transitions as plain JSON, with everything a
 * reader needs already in words (guards as expressions, delays as durations, actions by
 * name). The node serves it as is, and the browser lays it out without xstate, so
 * nothing in it may be a function or depend on the machine's code.
 */

export type JsonPrimitive = string | number | boolean | null;

/** What an action does, as far as a reader of the chart cares. */
export type ChartActionKind =
  /** A named action the runtime runs after the turn is written (an actor kind's effect handler). */
  | 'effect'
  /** `emit()`: a domain event for the bus and webhooks. */
  | 'emit'
  /** `assign()`: a change of context only. */
  | 'assign'
  /** Any other xstate action (`enqueueActions`, `raise`, `sendTo`, …): what it queues is decided at run time. */
  | 'builtin';

export interface ChartAction {
  /** The action's name in the machine's `actions`, or for an inline xstate action its kind (`enqueueActions`). */
  type: string;
  kind: ChartActionKind;
  /** Params written in the machine as literals; params computed from context are not known until run time. */
  params?: Record<string, JsonPrimitive>;
}

export interface ChartDelay {
  /** How the chart reads it: `1h`, `30m 15s`, or the delay's name when each actor computes its own. */
  label: string;
  /** The delay's name in the machine's `delays`, when it is named. */
  name?: string;
  /** Milliseconds, when the machine gives a fixed value. */
  ms?: number;
}

export interface ChartTransition {
  /** The event type; null for an `after` or an eventless (`always`) transition. */
  event: string | null;
  /** Set on an `after` transition. */
  delay?: ChartDelay;
  /** The guard as an expression of named guards: `fulfilled`, `a && !b`, `in(#payment.CREATED)`. */
  guard?: string;
  actions: ChartAction[];
  /** State ids entered; empty for a transition that stays where it is. */
  targets: string[];
  /** Exits and re-enters its target even when it is the source or its ancestor. */
  reenter?: boolean;
}

export type ChartStateType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface ChartState {
  /** Unique in the machine: the xstate id, `payment.CREATED.SIGNALLING`. */
  id: string;
  /** The state's own name, `SIGNALLING`. */
  key: string;
  type: ChartStateType;
  /** The id of the child entered first, for a compound state. */
  initial?: string;
  entry: ChartAction[];
  exit: ChartAction[];
  /** In the machine's order: `on` events, then `after` delays, then eventless transitions. */
  transitions: ChartTransition[];
  states: ChartState[];
  description?: string;
}

export interface ChartDefinition {
  /** The chart's name: the machine's id in kebab case, and the file name of its SVG. */
  name: string;
  /** The root state: the machine itself. */
  root: ChartState;
}

/** Every state under the root (the root itself excluded), depth first in the machine's order. */
export function chartStates(definition: ChartDefinition): ChartState[] {
  const found: ChartState[] = [];
  const visit = (state: ChartState) => {
    for (const child of state.states) {
      found.push(child);
      visit(child);
    }
  };
  visit(definition.root);
  return found;
}
