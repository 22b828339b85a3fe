/**
 * An actor's turns as a table, newest first unless asked otherwise, polling folded into
 * one row with a count (turn-folding.ts): the event, who sent it (a link to the sending
 * actor), when, the state before and after, and the effects queued (a tell links to the
 * actor told). Each row opens on the event's payload and what the turn changed in the
 * context, read when first opened. Picking a row's turn travels to it.
 */
import { stateLabel } from './active-states.js';
import { actorLink } from './actor-link.js';
import { button, element, table } from './dom.js';
import type { Turn } from './inspector-types.js';
import { effectsOf } from './turn-effects.js';
import { foldTurns, type TurnRow } from './turn-folding.js';
import { senderOf } from './turn-links.js';

export interface HistoryView {
  /** The index of the turn being viewed, null for now. */
  selected: number | null;
  newestFirst: boolean;
  pick(index: number): void;
  /** The payload and the context's changes of the turn at `index`, for its row's opened part. */
  details(index: number): Promise<Node[]>;
}

export function historyTable(turns: Turn[], view: HistoryView): HTMLElement {
  const folded = foldTurns(turns);
  const ordered = view.newestFirst ? [...folded].reverse() : folded;
  const rows = ordered.map((row) => historyRow(turns, row, view));
  return table(['turn', 'version', 'event, sender and message id', 'time', 'state before → after', 'effects'], rows, 'No turn recorded.');
}

function historyRow(turns: Turn[], row: TurnRow, view: HistoryView): HTMLTableRowElement {
  // A folded row shows its latest round: the one the actor stands after.
  const index = row.last;
  const turn = turns[index]!;
  const label = row.first === row.last ? `Turn ${index + 1}` : `Turns ${row.first + 1}–${row.last + 1}`;
  const events = turns.slice(row.first, row.first + row.period).map((each) => String(each.event.type ?? '?'));
  const tags = [...(turn.timer ? [element('span', 'tag', 'timer')] : []), ...(row.count > 1 ? [element('span', 'tag fold', `×${row.count}`)] : [])];
  const tr = element(
    'tr',
    '',
    element(
      'td',
      '',
      button(label, () => view.pick(index), 'turn'),
    ),
    element('td', 'number', String(turn.version)),
    element('td', '', element('div', 'event', events.join(' + '), ...tags), senderLine(turn), element('div', 'id', turn.messageId), payloadToggle(index, view)),
    element('td', '', timeOf(turn.at)),
    element('td', 'state', element('div', '', stateLabel(turn.stateBefore)), element('div', '', `→ ${stateLabel(turn.stateAfter)}`)),
    element('td', 'effects', ...effectLines(turn)),
  );
  tr.dataset.version = String(turn.version);
  if (row.count > 1) tr.dataset.folded = String(row.count);
  if (view.selected !== null && view.selected >= row.first && view.selected <= row.last) tr.setAttribute('aria-current', 'true');
  return tr;
}

function senderLine(turn: Turn): HTMLElement {
  const sender = senderOf(turn);
  if ('actor' in sender) return element('div', 'sender', 'sent by ', actorLink(sender.actor.kind, sender.actor.id));
  return element('div', 'sender', sender.from === 'outside' ? 'from outside the actors' : `from the ${sender.from}`);
}

/** The effects in words (turn-effects.ts), with each tell's target a link. */
function effectLines(turn: Turn): HTMLElement[] {
  const lines = effectsOf(turn);
  return lines.map((line, at) => {
    const entry = turn.effects.outbox[at];
    const split = entry?.type === 'tell' && entry.to ? entry.to.indexOf(':') : -1;
    if (!entry?.to || split <= 0) return element('div', '', line);
    return element('div', '', 'tell ', actorLink(entry.to.slice(0, split), entry.to.slice(split + 1)), ` ${entry.event ?? ''}`);
  });
}

function payloadToggle(index: number, view: HistoryView): HTMLDetailsElement {
  const body = element('div', 'payload');
  const toggle = element('details', 'turn-details', element('summary', '', 'payload and changes'), body);
  toggle.addEventListener('toggle', () => {
    if (!toggle.open || body.dataset.read) return;
    body.dataset.read = 'true';
    void view.details(index).then((nodes) => body.replaceChildren(...nodes));
  });
  return toggle;
}

/** The ISO time with a space for its T, so that a narrow column breaks it between the day and the time. */
function timeOf(iso: string): HTMLTimeElement {
  const time = element('time', '', iso.replace('T', ' '));
  time.dateTime = iso;
  return time;
}
