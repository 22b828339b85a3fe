/** How the embedded store reads values out of documents. */
export type Doc = Record<string, unknown>;

/**
 * Every value a dotted path reaches, fanning out over arrays the way MongoDB paths
 * do (a numeric segment also indexes into the array). `undefined` marks a miss.
 */
export function valuesAt(doc: Doc, path: string): unknown[] {
  const values = reach(doc, path.split('.'));
  return values.length > 0 ? values : [undefined];
}

function reach(value: unknown, parts: readonly string[], at = 0, out: unknown[] = []): unknown[] {
  const part = parts[at];
  if (part === undefined) {
    out.push(value);
  } else if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) reach(value[Number(part)], parts, at + 1, out);
    for (const item of value) if (!Array.isArray(item)) reach(item, parts, at, out);
  } else if (isPlainObject(value)) {
    reach(value[part], parts, at + 1, out);
  } else {
    out.push(undefined);
  }
  return out;
}

export function isPlainObject(value: unknown): value is Doc {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A string, boolean or number other than NaN: a value equality can be answered for by `===`. */
export function isPlainScalar(value: unknown): value is string | boolean | number {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && !Number.isNaN(value));
}
