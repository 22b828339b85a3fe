/**
 * An actor's turns as a table, oldest first: the event, when, the message applied, the
 * state before and after, and the effects queued. Picking a row travels to that turn.
 */
import { stateLabel } from './active-states.js';
import { button, element, table } from './dom.js';
import type { Turn } from './inspector-types.js';
import { effectsOf } from './turn-effects.js';

export function historyTable(turns: Turn[], selected: number | null, pick: (index: number) => void): HTMLElement {
  const rows = turns.map((turn, index) => {
    const tr = element(
      'tr',
      '',
      element('td', '', button(`Turn ${index + 1}`, () => pick(index), 'turn')),
      element('td', 'number', String(turn.version)),
      element('td', '', element('div', 'event', String(turn.event.type ?? '?'), ...(turn.timer ? [element('span', 'tag', 'timer')] : [])), element('div', 'id', turn.messageId)),
      element('td', '', timeOf(turn.at)),
      element('td', 'state', element('div', '', stateLabel(turn.stateBefore)), element('div', '', `→ ${stateLabel(turn.stateAfter)}`)),
      element('td', 'effects', ...effectsOf(turn).map((effect) => element('div', '', effect))),
    );
    tr.dataset.version = String(turn.version);
    if (index === selected) tr.setAttribute('aria-current', 'true');
    return tr;
  });
  return table(['turn', 'version', 'event and message id', 'time', 'state before → after', 'effects'], rows, 'No turn recorded.');
}

/** The ISO time with a space for its T, so that a narrow column breaks it between the day and the time. */
function timeOf(iso: string): HTMLTimeElement {
  const time = element('time', '', iso.replace('T', ' '));
  time.dateTime = iso;
  return time;
}
