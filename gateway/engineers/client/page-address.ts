/**
 * What the address's fragment opens, so the page can be linked to: `#payment` draws a
 * machine's chart, `#payment/pay_…` inspects an actor (kind, then id).
 */
export type PageAddress = { machine: string } | { kind: string; id: string } | null;

export function readAddress(hash: string): PageAddress {
  let parts: string[];
  try {
    parts = hash.replace(/^#/, '').split('/').map(decodeURIComponent);
  } catch {
    return null; // a malformed escape: an address nobody wrote
  }
  const [first = '', second, ...rest] = parts;
  if (!first || rest.length > 0) return null;
  if (second === undefined) return { machine: first };
  return second ? { kind: first, id: second } : null;
}

export function actorAddress(kind: string, id: string): string {
  return `#${encodeURIComponent(kind)}/${encodeURIComponent(id)}`;
}
