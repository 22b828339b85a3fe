/**
 * An API document's state table as test data, and the judgement of a step against it.
 * A row says: from these documented statuses, moved by these events, to this status, the
 * service emits these events. A step whose status changes, or that emits an event the
 * document names, must match exactly one row; one that matches none is either listed as
 * beyond the document (with the reason) or reported. Known disagreements are marked on
 * their row, so the tests that meet them are expected to fail until the machine or the
 * document changes.
 */
import { delayName, isTimerEvent, type Action } from './model-machine.js';
import type { MachineModel, ModelStep } from './model-paths.js';

/** The `from` of a creation row. */
export const NEW = '(new)';

export interface DocumentRow {
  /** Where the row is, e.g. `document 1, States and transitions, Order status`. */
  section: string;
  /** The row in a few words, for test titles. */
  row: string;
  /** Documented statuses, or NEW. */
  from: readonly string[];
  /** What moves it: event types, `after <delay>` for a timer, `create` for the creating message. */
  by: readonly string[];
  to: string;
  /** The document's events, in order. */
  emits: readonly string[] | ((step: ModelStep) => readonly string[]);
  /** A condition of the row the statuses and events do not capture. */
  when?: (step: ModelStep) => boolean;
  /** What else the row says is so after it (`completedAt set`), checked on the step. */
  holds?: { what: string; check: (step: ModelStep) => boolean };
  /** The machine has nothing that does this row: its row test is expected to fail. */
  missing?: string;
  /** The machine does this row otherwise: paths that meet it are expected to fail. */
  disagreement?: string;
}

export interface DocumentTable {
  /** The event types the document names: other domain events are the machine's own business. */
  events: readonly string[];
  rows: readonly DocumentRow[];
  /** Transitions the document has no row for, by id, each with why that is not a disagreement. */
  beyond: Readonly<Record<string, string>>;
}

export interface Judgement {
  row: DocumentRow | null;
  /** What the row says the step emits; null when no row applies. */
  expected: readonly string[] | null;
  problems: string[];
  /** Whether every problem is one a row marks as known. */
  known: boolean;
}

export function stepKey(step: ModelStep): string {
  if (step.before === null) return 'create';
  return isTimerEvent(step.event) ? `after ${delayName(step.event)}` : step.event.type;
}

/** The document's events among a step's actions, in order. */
export function documentedEmits(table: DocumentTable, actions: readonly Action[]): string[] {
  return actions
    .filter((action) => action.type === 'xstate.emit')
    .map((action) => (action.params as { event: { type: string } }).event.type)
    .filter((type) => table.events.includes(type));
}

export function judgeStep(model: MachineModel, step: ModelStep, emitted: readonly string[]): Judgement {
  const table = model.document!;
  const from = step.before === null ? NEW : model.statusOf(step.before);
  const to = model.statusOf(step.after);
  const key = stepKey(step);
  const rows = table.rows.filter((row) => row.from.includes(from) && row.by.includes(key) && row.to === to && (row.when?.(step) ?? true));
  const moved = `${from} -${key}-> ${to} emitting [${emitted.join(', ')}]`;
  if (rows.length > 1) return { row: null, expected: null, problems: [`${moved}: rows "${rows.map((row) => row.row).join('", "')}" all match`], known: false };
  const [row] = rows;
  if (!row) {
    if (from === to && emitted.length === 0) return { row: null, expected: null, problems: [], known: true };
    if (step.transitions.some((id) => id in table.beyond)) return { row: null, expected: null, problems: [], known: true };
    return { row: null, expected: null, problems: [`${moved}: no row of the document's table does this`], known: false };
  }
  const expected = typeof row.emits === 'function' ? row.emits(step) : row.emits;
  const problems: string[] = [];
  if (expected.length !== emitted.length || expected.some((type, index) => emitted[index] !== type)) {
    problems.push(`${moved}: "${row.row}" (${row.section}) emits [${expected.join(', ')}]`);
  }
  if (row.holds && !row.holds.check(step)) problems.push(`${moved}: "${row.row}" (${row.section}) says ${row.holds.what}`);
  return { row, expected, problems, known: problems.length === 0 || row.disagreement !== undefined };
}

/** The judgement of a whole path on the machine alone: the runner checks the actor against the same rows. */
export function judgePath(model: MachineModel, steps: readonly ModelStep[]): { rows: DocumentRow[]; problems: string[]; known: boolean } {
  const judgements = steps.map((step) => judgeStep(model, step, documentedEmits(model.document!, step.actions)));
  return {
    rows: judgements.flatMap((judgement) => (judgement.row ? [judgement.row] : [])),
    problems: judgements.flatMap((judgement) => judgement.problems),
    known: judgements.every((judgement) => judgement.known),
  };
}
