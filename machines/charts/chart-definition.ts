/**
 * Reads a machine's definition into its chart graph (chart-graph.ts): its state nodes as
 * xstate resolved them, never its source text. Guards built with `and`, `or`, `not` and
 * `stateIn` become expressions; a named delay reads as its value where the machine fixes
 * one, and as its name where each actor computes its own (the payment's window comes from
 * its context); an action is classified by its implementation, so an effect the runtime
 * runs, an emitted event and a mere context change can be told apart.
 */
import { and, not, or, stateIn, type AnyStateMachine } from 'xstate';
import type { ChartAction, ChartActionKind, ChartDefinition, ChartDelay, ChartState, ChartStateType, ChartTransition, JsonPrimitive } from './chart-graph.js';
import { withParams } from './chart-labels.js';
import { durationLabel } from './duration-label.js';

/** The parts of xstate's state nodes and transitions read here, as they are at run time. */
interface StateNodeShape {
  id: string;
  key: string;
  type: ChartStateType;
  description?: string;
  initial?: { target: ReadonlyArray<{ id: string }> };
  states: Record<string, StateNodeShape>;
  entry: readonly unknown[];
  exit: readonly unknown[];
  transitions: Map<string, TransitionShape[]>;
  after: Array<TransitionShape & { delay: string | number }>;
  always?: TransitionShape[];
}

interface TransitionShape {
  eventType: string;
  guard?: unknown;
  actions: readonly unknown[];
  target?: ReadonlyArray<{ id: string }>;
  reenter: boolean;
}

interface Implementations {
  actions: Record<string, unknown>;
  delays: Record<string, unknown>;
}

/** An xstate built-in (action or guard) is a function carrying its kind in properties. */
type Builtin = ((...args: never[]) => unknown) & { type?: string; event?: unknown; check?: unknown; guards?: unknown[]; stateValue?: unknown };

// The combinators' checks are shared by every guard they build: identity tells which one a guard is.
const checkOf = (guard: unknown) => (guard as Builtin).check;
const AND = checkOf(and([]));
const OR = checkOf(or([]));
const NOT = checkOf(not(() => true));
const STATE_IN = checkOf(stateIn('#'));

const AFTER_EVENT = 'xstate.after.';

export function chartDefinition(machine: AnyStateMachine): ChartDefinition {
  const implementations = machine.implementations as unknown as Implementations;
  return { name: chartName(machine.id), root: stateOf(machine.root as unknown as StateNodeShape, implementations) };
}

/** `walletTransfer` → `wallet-transfer`: one spelling for file names and URLs. */
export function chartName(machineId: string): string {
  return machineId.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

function stateOf(node: StateNodeShape, implementations: Implementations): ChartState {
  const state: ChartState = {
    id: node.id,
    key: node.key,
    type: node.type,
    entry: node.entry.flatMap((action) => actionOf(action, implementations)),
    exit: node.exit.flatMap((action) => actionOf(action, implementations)),
    transitions: transitionsOf(node, implementations),
    states: Object.values(node.states).map((child) => stateOf(child, implementations)),
  };
  const initial = node.type === 'compound' ? node.initial?.target[0]?.id : undefined;
  if (initial) state.initial = initial;
  if (node.description) state.description = node.description;
  return state;
}

function transitionsOf(node: StateNodeShape, implementations: Implementations): ChartTransition[] {
  const onEvents = [...node.transitions.entries()].filter(([event]) => !event.startsWith(AFTER_EVENT)).flatMap(([, list]) => list);
  return [
    ...onEvents.map((transition) => transitionOf(transition, transition.eventType, undefined, implementations)),
    ...node.after.map((transition) => transitionOf(transition, null, delayOf(transition.delay, implementations), implementations)),
    ...(node.always ?? []).map((transition) => transitionOf(transition, null, undefined, implementations)),
  ];
}

function transitionOf(transition: TransitionShape, event: string | null, delay: ChartDelay | undefined, implementations: Implementations): ChartTransition {
  // Optional fields are left out rather than undefined, so the same machine is always the same JSON.
  return {
    event,
    ...(delay ? { delay } : {}),
    ...(transition.guard !== undefined ? { guard: guardLabel(transition.guard, false) } : {}),
    actions: transition.actions.flatMap((action) => actionOf(action, implementations)),
    targets: (transition.target ?? []).map((target) => target.id),
    ...(transition.reenter ? { reenter: true } : {}),
  };
}

function delayOf(delay: string | number, implementations: Implementations): ChartDelay {
  if (typeof delay === 'number') return { label: durationLabel(delay), ms: delay };
  const value = implementations.delays[delay];
  return typeof value === 'number' ? { label: durationLabel(value), name: delay, ms: value } : { label: delay, name: delay };
}

/** `nested`: inside another combinator, where a compound expression needs parentheses. */
function guardLabel(guard: unknown, nested: boolean): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const builtin = guard as Builtin;
    const parts = (builtin.guards ?? []).map((inner) => guardLabel(inner, true));
    if (builtin.check === AND || builtin.check === OR) {
      const expression = parts.join(builtin.check === AND ? ' && ' : ' || ');
      return nested && parts.length > 1 ? `(${expression})` : expression;
    }
    if (builtin.check === NOT) return `!${parts[0] ?? ''}`;
    if (builtin.check === STATE_IN) return `in(${typeof builtin.stateValue === 'string' ? builtin.stateValue : JSON.stringify(builtin.stateValue)})`;
    return '(inline guard)';
  }
  if (isRecord(guard) && typeof guard.type === 'string') return withParams(guard.type, literalParams(guard.params));
  return '(guard)';
}

function actionOf(action: unknown, implementations: Implementations): ChartAction[] {
  if (typeof action === 'string') return [named(action, undefined, implementations)];
  if (isRecord(action) && typeof action.type === 'string') return [named(action.type, literalParams(action.params), implementations)];
  if (typeof action === 'function') return inline(action as Builtin);
  return [];
}

function named(type: string, params: Record<string, JsonPrimitive> | undefined, implementations: Implementations): ChartAction {
  const implementation = implementations.actions[type] as Builtin | undefined;
  const action: ChartAction = { type, kind: kindOf(implementation) };
  if (params) action.params = params;
  return action;
}

/**
 * An xstate action written in place: `emit({ type: 'X' })` is its event, anything else its
 * kind. The timer xstate raises on entry (and cancels on exit) for each `after` is left out:
 * the `after` transition itself is what the chart shows.
 */
function inline(action: Builtin & { id?: unknown; sendId?: unknown }): ChartAction[] {
  if ([action.id, action.sendId].some((id) => typeof id === 'string' && id.startsWith(AFTER_EVENT))) return [];
  const kind = kindOf(action);
  if (kind === 'emit' && isRecord(action.event) && typeof action.event.type === 'string') return [{ type: action.event.type, kind }];
  return [{ type: action.type?.replace(/^xstate\./, '') ?? (action.name || 'inline'), kind }];
}

/** A named action with no xstate implementation is one the runtime runs: an effect. */
function kindOf(implementation: Builtin | undefined): ChartActionKind {
  const type = implementation?.type;
  if (type === 'xstate.emit') return 'emit';
  if (type === 'xstate.assign') return 'assign';
  if (type?.startsWith('xstate.')) return 'builtin';
  return 'effect';
}

/** Params the machine wrote as a literal object; computed ones (a function of context) are not known here. */
function literalParams(params: unknown): Record<string, JsonPrimitive> | undefined {
  if (!isRecord(params)) return undefined;
  const entries = Object.entries(params).map(([key, value]): [string, JsonPrimitive] => [
    key,
    isPrimitive(value) ? value : (JSON.stringify(value) ?? String(value)),
  ]);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function isPrimitive(value: unknown): value is JsonPrimitive {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
