/** The actors a search found, each a link to its inspection (`#kind/id`). */
import { stateLabel } from './active-states.js';
import { element, hint } from './dom.js';
import type { ActorSearch } from './inspector-types.js';
import { actorAddress } from './page-address.js';

export function searchResults(found: ActorSearch): HTMLElement[] {
  if (found.actors.length === 0) return [hint(`Nothing found for ${found.query}.`)];
  const links = found.actors.map((actor) => {
    const link = element(
      'a',
      'found',
      element('span', 'kind', actor.kind),
      element('span', 'id', actor.id),
      element('span', 'count', `${stateLabel(actor.state)} · ${actor.match === 'id' ? 'the id' : `by ${actor.match}`}`),
    );
    link.href = actorAddress(actor.kind, actor.id);
    link.dataset.actor = `${actor.kind}:${actor.id}`;
    return link;
  });
  return found.hasMore ? [...links, hint(`More than ${found.limit} match: narrow the search.`)] : links;
}
