/**
 * An area of the API behind one guard, such as the admin API under `/internal`. The
 * area's router is reachable only through the guard, and the guard runs before
 * routing for every request whose path falls in the area under any reading: as
 * written, percent-decoded, with repeated slashes, backslashes and dot segments folded,
 * in any letter case. Routes match exactly (routing.ts), so the guard covers a
 * superset of what the router can match, and a caller without credentials gets the
 * guard's answer whether or not a route is there, whatever the method.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { posix } from 'node:path';
import type { RoutesMiddleware } from '../routing.js';

/** Decoding stops here; each round undoes one layer of percent-encoding (`%2569` → `%69` → `i`). */
const DECODE_ROUNDS = 3;

export function guardedArea<S>(prefix: string, guard: Middleware<S>, router: Router<S>): RoutesMiddleware<S> {
  const area = prefix.toLowerCase();
  const routes = router.routes();
  return (ctx, next) => (inArea(ctx.path, area) ? guard(ctx, () => routes(ctx, next)) : next());
}

function inArea(path: string, area: string): boolean {
  return readings(path).some((reading) => reading === area || reading.startsWith(`${area}/`));
}

/** Nothing to decode or fold: the path's only other reading is its lower case. */
const PLAIN_PATH = /^[^%\\.]*$/;

function readings(path: string): string[] {
  if (PLAIN_PATH.test(path) && !path.includes('//')) return [path.toLowerCase()];
  const spellings = [path];
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const decoded = decodeOnce(spellings.at(-1)!);
    if (decoded === spellings.at(-1)) break;
    spellings.push(decoded);
  }
  return spellings.map((spelling) => posix.normalize(spelling.replace(/\\/g, '/')).toLowerCase());
}

/** Escapes that do not decode (`%zz`, a lone `%`) are left as written, one at a time, so the rest still decodes. */
function decodeOnce(text: string): string {
  return text.replace(/%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2})*/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return Buffer.from(run.replace(/%/g, ''), 'hex').toString('latin1');
    }
  });
}
