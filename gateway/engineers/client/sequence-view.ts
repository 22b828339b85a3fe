/**
 * An order's actors side by side over time (GET …/actors/order/{orderId}/sequence): a
 * column per actor (the order, its payments, their transactions, the webhook deliveries),
 * a row per turn, oldest first. The turn sits in its actor's column with its event and
 * the state it left; a tell names its target, and the target's column marks the arrival.
 * Every actor is a link to its inspection.
 */
import { stateLabel } from './active-states.js';
import { actorLink } from './actor-link.js';
import { element, hint } from './dom.js';
import type { OrderSequence } from './inspector-types.js';
import { senderOf } from './turn-links.js';

export function sequenceTable(sequence: OrderSequence): HTMLElement {
  if (sequence.turns.length === 0) return hint('No turn recorded.');
  const columns = sequence.actors.map((actor) => `${actor.kind}:${actor.id}`);
  const head = element(
    'tr',
    '',
    element('th', '', 'time'),
    ...sequence.actors.map((actor) =>
      element(
        'th',
        '',
        actorLink(actor.kind, actor.id),
        element('div', 'state', stateLabel(actor.state)),
        ...(actor.turnsTruncated ? [element('div', 'hint', 'newest 200 turns')] : []),
      ),
    ),
  );
  const rows = sequence.turns.map((turn) => {
    const sender = senderOf(turn);
    const from = 'actor' in sender ? `${sender.actor.kind}:${sender.actor.id}` : null;
    const cells = columns.map((column) => {
      if (column === turn.actor) {
        return element(
          'td',
          'acting',
          element('div', 'event', turn.event, ...(turn.timer ? [element('span', 'tag', 'timer')] : [])),
          element('div', 'state', `→ ${stateLabel(turn.stateAfter)}`),
          ...turn.told.map((told) => element('div', 'told', `${told.event} → ${told.to.split(':')[0]}`)),
        );
      }
      return element('td', column === from ? 'sender' : '', column === from ? `told ${turn.event} →` : '');
    });
    const tr = element('tr', '', element('td', '', element('time', '', turn.at.slice(11, 23))), ...cells);
    tr.dataset.actor = turn.actor;
    return tr;
  });
  return element('div', 'sequence', element('table', 'grid', element('thead', '', head), element('tbody', '', ...rows)));
}
