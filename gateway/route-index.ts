/**
 * @koa/router finds a request's routes by testing every layer's regular expression in
 * turn: over the gateway's hundred-odd routes that was about 6 µs of a 90 µs hosted
 * read on the gateway bench. Routes match exactly (routing.ts), so a path can only
 * match a template with as many segments and the same literal segments up to its first
 * parameter. The index files each layer under that key and tests only the layers
 * filed under the keys a path can have, in registration order, with the layers' own
 * expressions: the result is the linear scan's, layer for layer (test/gateway/route-index.test.ts).
 *
 * A layer whose template could reach past that key (a router-level middleware, a
 * regular expression, wildcards or optional parts, a layer that ignores case or
 * trailing slashes) is tested for every path, as before.
 */
import type { default as Router, Layer, MatchResult } from '@koa/router';

/** Characters that make a template more than literal segments and whole-segment-bounded parameters. */
const NOT_PLAIN = /[*?+(){}[\]!\\]/;

/**
 * Gives `router` the indexed match. The index is made afresh when layers are added, and
 * when `prefix` rewrites the paths of the layers already there.
 */
export function indexRoutes<S>(router: Router<S>): void {
  let index: RouteIndex<S> | undefined;
  router.match = (path, method) => {
    if (index?.layers !== router.stack.length) index = new RouteIndex(router.stack);
    return index.match(path, method);
  };
  const prefix = router.prefix.bind(router);
  router.prefix = (value) => {
    index = undefined;
    return prefix(value);
  };
}

class RouteIndex<S> {
  readonly layers: number;
  readonly #stack: readonly Layer<S>[];
  /** Positions in the stack by segment count, then by the literal segments before the first parameter. */
  readonly #byKey = new Map<number, Map<string, number[]>>();
  /** Positions of the layers tested for every path. */
  readonly #everywhere: number[] = [];

  constructor(stack: readonly Layer<S>[]) {
    this.#stack = [...stack];
    this.layers = stack.length;
    stack.forEach((layer, position) => {
      const key = keyOf(layer);
      if (key === undefined) {
        this.#everywhere.push(position);
        return;
      }
      const [segments, prefix] = key;
      let byPrefix = this.#byKey.get(segments);
      if (!byPrefix) this.#byKey.set(segments, (byPrefix = new Map()));
      let positions = byPrefix.get(prefix);
      if (!positions) byPrefix.set(prefix, (positions = []));
      positions.push(position);
    });
  }

  match(path: string, method: string): MatchResult<S> {
    const result: MatchResult<S> = { path: [], pathAndMethod: [], route: false };
    const upper = method.toUpperCase();
    for (const position of this.#candidates(path)) {
      const layer = this.#stack[position]!;
      if (!layer.match(path)) continue;
      result.path.push(layer);
      if (layer.methods.length === 0 || layer.methods.includes(upper)) {
        result.pathAndMethod.push(layer);
        if (layer.methods.length > 0) result.route = true;
      }
    }
    return result;
  }

  #candidates(path: string): number[] {
    const found: number[][] = this.#everywhere.length > 0 ? [this.#everywhere] : [];
    const byPrefix = this.#byKey.get(segmentCount(path));
    if (byPrefix) {
      // Every prefix ending before a slash, then the whole path: '', '/api', '/api/v1', …
      for (let end = path.indexOf('/'); ; end = path.indexOf('/', end + 1)) {
        const positions = byPrefix.get(end === -1 ? path : path.slice(0, end));
        if (positions) found.push(positions);
        if (end === -1) break;
      }
    }
    if (found.length === 1) return found[0]!;
    return found.flat().sort((a, b) => a - b);
  }
}

function segmentCount(path: string): number {
  let count = 1;
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) count++;
  return count;
}

/** The key a layer is filed under (segment count, literal prefix), or undefined when it may match paths of other shapes. */
function keyOf<S>(layer: Layer<S>): [number, string] | undefined {
  const { opts, path } = layer;
  const exact = opts.sensitive === true && opts.strict === true && opts.end !== false && opts.pathAsRegExp !== true;
  if (!exact || layer.methods.length === 0 || typeof path !== 'string' || !path.startsWith('/') || NOT_PLAIN.test(path)) return undefined;
  const segments = path.split('/');
  const firstParameter = segments.findIndex((segment) => segment.includes(':'));
  const literal = firstParameter === -1 ? segments : segments.slice(0, firstParameter);
  return [segments.length, literal.join('/')];
}
