/** The parts of an inspected actor that are only as of now: its pending timers and its outbox. */
import { element, row, table } from './dom.js';
import type { InspectedActor } from './inspector-types.js';

export function timersView(actor: InspectedActor): HTMLElement {
  const rows = actor.timers.map((timer) =>
    row(
      timer.id,
      element('time', '', timer.dueAt),
      String(timer.event.type ?? ''),
      timer.retryAt ? `${timer.attempts} failed, retry ${timer.retryAt}` : String(timer.attempts),
    ),
  );
  return section('Pending timers', table(['timer', 'due', 'delivers', 'attempts'], rows, 'No timer pending.'));
}

export function outboxView(actor: InspectedActor): HTMLElement {
  const rows = actor.outbox.map((entry) => row(entry.id, entry.type, entry.queuedAt, String(entry.attempts), entry.nextAttemptAt ?? '', entry.lastError ?? ''));
  return section('Outbox', table(['effect', 'type', 'queued', 'attempts', 'next attempt', 'last error'], rows, 'Nothing waiting in the outbox.'));
}

export function section(title: string, ...content: Node[]): HTMLElement {
  return element('section', 'part', element('h3', '', title), ...content);
}
