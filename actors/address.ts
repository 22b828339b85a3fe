/**
 * An actor is addressed by `(kind, id)`. Ids travel inside NATS subjects and
 * document keys, so they are restricted to characters safe in both.
 */
export interface ActorAddress {
  kind: string;
  id: string;
}

const SAFE = /^[A-Za-z0-9_-]{1,128}$/;

export function assertAddress(address: ActorAddress): void {
  if (!SAFE.test(address.kind)) throw new TypeError(`actor kind ${JSON.stringify(address.kind)} is not [A-Za-z0-9_-]{1,128}`);
  if (!SAFE.test(address.id)) throw new TypeError(`actor id ${JSON.stringify(address.id)} is not [A-Za-z0-9_-]{1,128}`);
}

export function formatAddress(address: ActorAddress): string {
  return `${address.kind}:${address.id}`;
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
