/**
 * An actor is addressed by `(kind, id)`. Ids travel inside NATS subjects and
 * document keys, so they are restricted to characters safe in both.
 */
export interface ActorAddress {
  kind: string;
  id: string;
}

/** A kind or an id, unanchored: the source the patterns of one part and of a whole `kind:id` are built from. */
export const ADDRESS_PART = '[A-Za-z0-9_-]{1,128}';

/** A whole kind or id. */
export const SAFE_PART = new RegExp(`^${ADDRESS_PART}$`);

export function assertAddress(address: ActorAddress): void {
  if (!SAFE_PART.test(address.kind)) throw new TypeError(`actor kind ${JSON.stringify(address.kind)} is not ${ADDRESS_PART}`);
  if (!SAFE_PART.test(address.id)) throw new TypeError(`actor id ${JSON.stringify(address.id)} is not ${ADDRESS_PART}`);
}

export function formatAddress(address: ActorAddress): string {
  return `${address.kind}:${address.id}`;
}

/**
 * formatAddress read back: the kind ends at the first colon, which a safe part never holds.
 * Null without a colon; the parts are not checked, so hold the text to its pattern first.
 */
export function parseAddress(text: string): ActorAddress | null {
  const colon = text.indexOf(':');
  return colon < 0 ? null : { kind: text.slice(0, colon), id: text.slice(colon + 1) };
}

/**
 * FNV-1a over the id's UTF-16 code units: cheap, stable across processes and
 * versions, and spreads sequential ids evenly enough for shard placement.
 */
export function shardOf(id: string, shardCount: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shardCount;
}
