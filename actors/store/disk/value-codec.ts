/**
 * Documents as JSON text that reads back to exactly what the in-memory store holds.
 * actors/codec.ts is not enough here: it turns a Date into a string and drops
 * undefined, and the embedded store keeps both (deepCopy copies them), so a reload
 * through it would change query answers. Values JSON cannot carry are tagged as a
 * one-key object (`{"$date": 1700000000000}`), the way MongoDB's extended JSON does.
 *
 * Most documents (actor documents: their snapshots are codec-encoded already) hold
 * nothing to tag; a walk that allocates nothing finds that out, and then plain
 * JSON.stringify and JSON.parse do all the work, which keeps start-up fast.
 */
const TAGS = new Set(['$bigint', '$date', '$undefined', '$number', '$regex', '$escape']);

export interface EncodedDocument {
  json: string;
  /** Whether the text holds tags, so reading it needs the decoding walk. */
  tagged: boolean;
}

/** Throws TypeError for values a document cannot hold (functions, symbols, class instances other than Date and RegExp). */
export function encodeDocument(doc: unknown): EncodedDocument {
  if (isPlainJson(doc)) return { json: JSON.stringify(doc), tagged: false };
  return { json: JSON.stringify(tag(doc)), tagged: true };
}

export function decodeDocument(value: unknown, tagged: boolean): unknown {
  return tagged ? untag(value) : value;
}

function isPlainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i])) return false;
        return true;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return false;
      const keys = Object.keys(value);
      if (keys.length === 1 && TAGS.has(keys[0]!)) return false;
      for (const key of keys) if (!isPlainJson((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}

function tag(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? value : { $number: Object.is(value, -0) ? '-0' : String(value) };
    case 'bigint':
      return { $bigint: value.toString() };
    case 'undefined':
      return { $undefined: 1 };
    case 'object': {
      if (value === null) return null;
      // Array holes read as undefined, as deepCopy leaves them.
      if (Array.isArray(value)) return Array.from(value, tag);
      if (value instanceof Date) return { $date: tag(value.getTime()) };
      if (value instanceof RegExp) return { $regex: [value.source, value.flags] };
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null)
        throw new TypeError(`the embedded store cannot hold a ${prototype?.constructor?.name ?? 'class instance'}`);
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) out[key] = tag((value as Record<string, unknown>)[key]);
      const keys = Object.keys(out);
      return keys.length === 1 && TAGS.has(keys[0]!) ? { $escape: out } : out;
    }
    default:
      throw new TypeError(`the embedded store cannot hold a ${typeof value}`);
  }
}

function untag(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = untag(value[i]);
    return value;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1) {
    const inner = object[keys[0]!];
    switch (keys[0]) {
      case '$bigint':
        return BigInt(inner as string);
      case '$undefined':
        return undefined;
      case '$number':
        return Number(inner as string);
      case '$date':
        return new Date(untag(inner) as number);
      case '$regex': {
        const [source, flags] = inner as [string, string];
        return new RegExp(source, flags);
      }
      case '$escape':
        return untagFields(inner as Record<string, unknown>);
    }
  }
  return untagFields(object);
}

function untagFields(object: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(object)) object[key] = untag(object[key]);
  return object;
}
