/**
 * One actor on the page: its chart with the state it is in highlighted, its context, its
 * pending timers, its outbox, a form to send it an event, its turns (each with its
 * payload and the context's changes, read when opened) and, for an order, its actors
 * over time; and time travel, which redraws the chart and the context as they were after
 * a picked turn (the snapshot that turn stored, from GET …/history/{version}) until the
 * engineer goes back to now.
 */
import type { ChartDefinition } from '../../../machines/charts/chart-graph.js';
import { activeStateIds, stateLabel } from './active-states.js';
import { outboxView, section, timersView } from './actor-view.js';
import { showChart } from './chart-panel.js';
import { TokenRefusedError } from './admin-api.js';
import { contextDiff } from './context-diff.js';
import { button, element, hint, jsonBlock, row, table } from './dom.js';
import { eventForm } from './event-form.js';
import { historyTable } from './history-list.js';
import { HistoryPager } from './history-pager.js';
import { readActor, readAsOf, readOrderSequence, readTurns, sendEvent } from './inspector-api.js';
import type { InspectedActor, OrderSequence } from './inspector-types.js';
import { sequenceTable } from './sequence-view.js';
import { stepBack, stepForward, travelLabel, type Position } from './time-travel.js';

export interface InspectorPanels {
  /** The actor's name and the time-travel controls, kept in sight above the chart. */
  bar: HTMLElement;
  chart: HTMLElement;
  details: HTMLElement;
}

export interface InspectorSupport {
  token(): string | null;
  /** Runs a call of the admin API, reporting its failure; null when it failed. */
  guarded<T>(call: () => Promise<T>): Promise<T | null>;
  /** The chart of the machine an actor kind runs, null when the node charts none for it. */
  chartOf(kind: string, token: string): Promise<ChartDefinition | null>;
  /** An event sent from the page was applied: what lists actors may have changed. */
  sent(): void;
}

interface Inspected {
  actor: InspectedActor;
  definition: ChartDefinition | null;
  pager: HistoryPager;
  position: Position;
  /** An order's actors over time; null for any other kind. */
  sequence: OrderSequence | null;
}

export class ActorInspector {
  #inspected: Inspected | undefined;
  #newestFirst = true;
  /** What the last event sent from the form came to, shown in the form drawn after it. */
  #sent = '';
  // Bumped by every new view: an answer arriving for a view already left draws nothing.
  #view = 0;

  constructor(
    private readonly panels: InspectorPanels,
    private readonly support: InspectorSupport,
  ) {}

  async inspect(kind: string, id: string): Promise<void> {
    const view = ++this.#view;
    const token = this.support.token();
    if (!token) return;
    const inspected = await this.support.guarded(async (): Promise<Inspected> => {
      const actor = await readActor(kind, id, token);
      const pager = new HistoryPager((after, limit) => readTurns(kind, id, after, limit, token));
      // Every page: the list is newest first, and polling actors have long histories.
      const [definition, sequence] = await Promise.all([
        this.support.chartOf(kind, token),
        kind === 'order' ? readOrderSequence(id, token) : null,
        pager.rest(),
      ]);
      return { actor, definition, pager, position: null, sequence };
    });
    if (!inspected || view !== this.#view) return;
    this.#inspected = inspected;
    await this.#show(view);
  }

  close(): void {
    this.#view++;
    this.#inspected = undefined;
    this.panels.bar.hidden = true;
    this.panels.details.hidden = true;
    this.panels.bar.replaceChildren();
    this.panels.details.replaceChildren();
  }

  async #travel(move: (pager: HistoryPager, position: Position) => Promise<Position>): Promise<void> {
    const inspected = this.#inspected;
    if (!inspected) return;
    const view = ++this.#view;
    // Wrapped: null is a position of its own (now), and guarded's null a failure.
    const moved = await this.support.guarded(async () => ({ position: await move(inspected.pager, inspected.position) }));
    if (!moved || view !== this.#view) return;
    inspected.position = moved.position;
    await this.#show(view);
  }

  async #show(view: number): Promise<void> {
    const inspected = this.#inspected;
    const token = this.support.token();
    if (!inspected || !token) return;
    const { actor, pager, position, definition } = inspected;
    let shown: { state: InspectedActor['state']; context: Record<string, unknown> } = actor;
    if (position !== null) {
      const asOf = await this.support.guarded(() => readAsOf(actor.kind, actor.id, pager.turns[position]!.version, token));
      if (!asOf || view !== this.#view) return;
      shown = asOf;
    }
    // The bar first: shown, it gives the chart its frame (engineers.css), which the centring scrolls.
    this.panels.bar.replaceChildren(...this.#bar(inspected, shown.state));
    this.panels.bar.hidden = false;
    if (definition) {
      await showChart(this.panels.chart, definition, activeStateIds(definition.root, shown.state));
      centreOnState(this.panels.chart);
    } else this.panels.chart.replaceChildren(hint(`This node charts no machine for the kind ${actor.kind}.`));
    if (view !== this.#view) return;
    this.panels.details.replaceChildren(
      section(position === null ? 'Context (now)' : `Context after turn ${position + 1}`, jsonBlock(shown.context)),
      timersView(actor),
      outboxView(actor),
      section(
        'Send an event',
        eventForm(actor, (event) => this.#send(actor, event), this.#sent),
      ),
      wide(this.#history(inspected)),
      ...(inspected.sequence ? [wide(section('The order’s actors over time', sequenceTable(inspected.sequence)))] : []),
    );
    this.#sent = '';
    this.panels.details.hidden = false;
  }

  #bar({ actor, pager, position }: Inspected, state: InspectedActor['state']): Node[] {
    const title = element('h2', '', `${actor.kind} ${actor.id}`);
    const summary = element(
      'p',
      'summary',
      position === null
        ? `${stateLabel(state)} · ${actor.machine} v${actor.machineVersion} · document version ${actor.version} · ${actor.status}`
        : `${stateLabel(state)} after turn ${position + 1} · now ${stateLabel(actor.state)}, document version ${actor.version}`,
    );
    const back = button('◀ Previous turn', () => void this.#travel(stepBack));
    back.disabled = position === 0 || (position === null && pager.turns.length === 0);
    const forward = button('Next turn ▶', () => void this.#travel(stepForward));
    forward.disabled = position === null;
    const where =
      position === null
        ? element('span', 'where', 'viewing now')
        : element(
            'span',
            'where',
            `${travelLabel(pager, position)} (version ${pager.turns[position]!.version}) — `,
            button('back to now', () => void this.#travel(async () => null), 'link'),
          );
    const travel = element('div', position === null ? 'travel' : 'travel past', back, forward, where);
    travel.setAttribute('role', 'status');
    return [title, summary, travel];
  }

  #history(inspected: Inspected): HTMLElement {
    const { pager, position } = inspected;
    const list = historyTable(pager.turns, {
      selected: position,
      newestFirst: this.#newestFirst,
      pick: (index) => void this.#travel(async () => index),
      details: (index) => this.#turnDetails(inspected, index),
    });
    const order = button(this.#newestFirst ? 'Oldest first' : 'Newest first', () => {
      this.#newestFirst = !this.#newestFirst;
      void this.#show(++this.#view);
    });
    return section(`History · ${pager.turns.length} turns, ${this.#newestFirst ? 'newest' : 'oldest'} first`, order, list);
  }

  /** The turn's event, and what it changed in the context: the snapshots it and the turn before it stored. */
  async #turnDetails({ actor, pager }: Inspected, index: number): Promise<Node[]> {
    const token = this.support.token();
    const turn = pager.turns[index];
    if (!token || !turn) return [];
    const previous = pager.turns[index - 1];
    const read = await this.support.guarded(() =>
      Promise.all([
        readAsOf(actor.kind, actor.id, turn.version, token),
        previous ? readAsOf(actor.kind, actor.id, previous.version, token) : Promise.resolve(null),
      ]),
    );
    if (!read) return [hint('Could not read the turn.')];
    const [after, before] = read;
    const changes = contextDiff(before?.context ?? {}, after.context);
    const compact = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));
    return [
      element('h4', '', 'Event'),
      jsonBlock(turn.event),
      element('h4', '', previous ? `Context changes since turn ${index}` : 'Context at creation'),
      table(
        ['path', 'before', 'after'],
        changes.map((change) => row(change.path, compact(change.before), compact(change.after))),
        'The context did not change.',
      ),
    ];
  }

  async #send(actor: InspectedActor, event: Record<string, unknown>): Promise<string> {
    const token = this.support.token();
    if (!token) return '';
    try {
      const sent = await sendEvent(actor.kind, actor.id, event, token);
      this.#sent = sent.turn
        ? `Sent: turn at version ${sent.turn.version}, ${stateLabel(sent.turn.stateBefore)} → ${stateLabel(sent.turn.stateAfter)}.`
        : 'Sent: the node had applied this message before.';
      this.support.sent();
      await this.inspect(actor.kind, actor.id);
      return this.#sent;
    } catch (error) {
      if (error instanceof TokenRefusedError) {
        await this.support.guarded(() => Promise.reject(error));
        return '';
      }
      return `Refused: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}

function wide(part: HTMLElement): HTMLElement {
  part.classList.add('wide');
  return part;
}

/**
 * Scrolls the chart's frame to the state the actor is in: a large machine's chart is
 * wider and taller than the frame, and the highlight is the reason to look at it.
 */
function centreOnState(frame: HTMLElement): void {
  // States are drawn outermost first, so the last active one is the innermost.
  const states = frame.querySelectorAll('.state.active');
  const state = states[states.length - 1];
  if (!state) return;
  const box = state.getBoundingClientRect();
  const view = frame.getBoundingClientRect();
  frame.scrollLeft += box.left + box.width / 2 - (view.left + view.width / 2);
  frame.scrollTop += box.top + box.height / 2 - (view.top + view.height / 2);
}
