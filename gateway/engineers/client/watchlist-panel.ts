/**
 * "Worth a look": the watchlist (GET /internal/v1/actors/watchlist) in the side panel,
 * for an engineer who has no id yet. Five lists, each row a link to the actor's
 * inspection with why it is listed; a dead letter links to its actor.
 */
import { stateLabel } from './active-states.js';
import { element, hint } from './dom.js';
import type { WatchedActor, Watchlist } from './inspector-types.js';
import { actorAddress } from './page-address.js';

const LISTS: Array<{ key: 'recent' | 'dueTimers' | 'stuck' | 'failingEffects'; title: string; empty: string }> = [
  { key: 'recent', title: 'Recent turns', empty: 'No turn yet.' },
  { key: 'dueTimers', title: 'Timers due', empty: 'No timer pending.' },
  { key: 'stuck', title: 'Stuck', empty: 'Nothing stuck.' },
  { key: 'failingEffects', title: 'Failing effects', empty: 'No effect failing.' },
];

export function watchlistLists(watchlist: Watchlist): HTMLElement[] {
  const lists = LISTS.map(({ key, title, empty }) => {
    const heading = key === 'stuck' ? `${title} (no turn for ${watchlist.stuckAfter} min)` : title;
    const rows = watchlist[key];
    return group(key, `${heading} · ${rows.length}`, rows.length === 0 ? [hint(empty)] : rows.map(watchedLink));
  });
  const letters = watchlist.deadLetters.map((letter) => {
    const parts = [
      element('span', 'kind', 'dead letter'),
      element('span', 'id', letter.actor ?? letter.id),
      element('span', 'count', `${letter.source} · ${letter.attempts} attempts · ${letter.error}`),
    ];
    const split = letter.actor?.indexOf(':') ?? -1;
    if (!letter.actor || split <= 0) return element('div', 'found', ...parts);
    const link = element('a', 'found', ...parts);
    link.href = actorAddress(letter.actor.slice(0, split), letter.actor.slice(split + 1));
    link.dataset.actor = letter.actor;
    return link;
  });
  return [...lists, group('deadLetters', `Dead letters · ${letters.length}`, letters.length === 0 ? [hint('No open dead letter.')] : letters)];
}

function group(key: string, title: string, rows: HTMLElement[]): HTMLElement {
  const made = element('section', 'watch', element('h3', '', title), ...rows);
  made.dataset.list = key;
  return made;
}

function watchedLink(actor: WatchedActor): HTMLAnchorElement {
  const link = element(
    'a',
    'found',
    element('span', 'kind', actor.kind),
    element('span', 'id', actor.id),
    element('span', 'count', `${stateLabel(actor.state)} · ${actor.note}`),
  );
  link.href = actorAddress(actor.kind, actor.id);
  link.dataset.actor = `${actor.kind}:${actor.id}`;
  link.title = actor.at;
  return link;
}
