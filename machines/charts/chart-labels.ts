/**
 * The words a chart shows for a transition or a state, in lines short enough to sit beside
 * an edge: `EVENT`, `[guard]`, `/ effect, emit EVENT`. Context changes (`assign`) are left
 * out of the drawing, as they say nothing about where the actor goes or what it tells the
 * world; the JSON definition still lists them.
 */
import type { ChartAction, ChartState, ChartTransition, JsonPrimitive } from './chart-graph.js';

/** What a line says, which the drawing colours. */
export type LineKind = 'trigger' | 'guard' | 'action';

export interface LabelLine {
  text: string;
  kind: LineKind;
}

/** Past this many characters a line is wrapped, at a space. */
const MAX_LINE = 44;

const DONE_EVENT = 'xstate.done.state.';

export function withParams(name: string, params: Record<string, JsonPrimitive> | undefined): string {
  return params ? `${name}(${Object.values(params).map(String).join(', ')})` : name;
}

/** `signalIntent`, `emit announce(SETTLED)`; null for a change of context only. */
export function actionLabel(action: ChartAction): string | null {
  if (action.kind === 'assign') return null;
  const named = withParams(action.type, action.params);
  return action.kind === 'emit' ? `emit ${named}` : named;
}

function triggerLabel(transition: ChartTransition): string {
  if (transition.delay) return `after ${transition.delay.label}`;
  if (transition.event === null) return 'always';
  if (transition.event.startsWith(DONE_EVENT)) return 'done';
  return transition.event;
}

/** An edge's label: the trigger, then the guard, then what it does. */
export function transitionLines(transition: ChartTransition): LabelLine[] {
  return [
    ...wrap(triggerLabel(transition), 'trigger'),
    ...(transition.guard ? wrap(`[${transition.guard}]`, 'guard') : []),
    ...actionLines('/ ', transition.actions),
  ];
}

/**
 * What a state's box lists under its name: its entry and exit actions, and the events it
 * takes without leaving (transitions with no target), each on its own lines.
 */
export function stateLines(state: ChartState): LabelLine[] {
  const internal = state.transitions.filter((transition) => transition.targets.length === 0);
  return [
    ...actionLines('entry / ', state.entry),
    ...actionLines('exit / ', state.exit),
    ...internal.flatMap((transition) => {
      const guard = transition.guard ? ` [${transition.guard}]` : '';
      const actions = transition.actions.map(actionLabel).filter((label): label is string => label !== null);
      return wrap(`${triggerLabel(transition)}${guard}${actions.length > 0 ? ` / ${actions.join(', ')}` : ''}`, 'trigger');
    }),
  ];
}

function actionLines(prefix: string, actions: ChartAction[]): LabelLine[] {
  const labels = actions.map(actionLabel).filter((label): label is string => label !== null);
  return labels.length > 0 ? wrap(`${prefix}${labels.join(', ')}`, 'action') : [];
}

/** Greedy wrap at spaces; a continuation line is indented so it reads as one item. */
function wrap(text: string, kind: LineKind): LabelLine[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > MAX_LINE) {
      lines.push(line);
      line = `  ${word}`;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.map((text) => ({ text, kind }));
}
