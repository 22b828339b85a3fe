/** A link to another actor's inspection (`#kind/id`), as every mention of an actor on the page is. */
import { element } from './dom.js';
import { actorAddress } from './page-address.js';

export function actorLink(kind: string, id: string): HTMLAnchorElement {
  const link = element('a', 'actor-link', `${kind}:${id}`);
  link.href = actorAddress(kind, id);
  link.dataset.actor = `${kind}:${id}`;
  return link;
}
