/**
 * The access line every request writes, formatted straight into pino's output.
 *
 * pino's general path (a merged object, then each field through the serializer,
 * stringifier and redaction checks) cost about 11 µs of a 110 µs hosted read on the
 * gateway bench. This line has a fixed shape and only identifiers and figures in it, so
 * it is written as pino would write it: the level's cached prefix, the logger's time
 * and bindings, the fields, the message. The result is byte for byte pino's
 * (test/gateway/access-line.test.ts).
 *
 * A logger that would change a line on its way out (a log formatter, a mixin, a
 * stream-write hook, a destination that wants each line's level) gets every line
 * through pino instead.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export interface AccessFields {
  method: string;
  path: string;
  status: number;
  ms: number;
}

const MESSAGE = 'request';

/** Writes one access line with `context` (the request's identifiers) ahead of the access fields. */
export type AccessLine = (context: Readonly<Record<string, string>>, fields: AccessFields) => void;

export function accessLine(logger: Logger): AccessLine {
  const plain = plainParts(logger);
  if (!plain) return (context, fields) => logger.info({ ...context, ...fields }, MESSAGE);
  const { prefix, time, chindings, stream, messageKey } = plain;
  return (context, fields) => {
    if (!logger.isLevelEnabled('info')) return;
    let line = prefix + time() + chindings;
    for (const key in context) line += `,${JSON.stringify(key)}:${JSON.stringify(context[key])}`;
    line += `,"method":${JSON.stringify(fields.method)},"path":${JSON.stringify(fields.path)},"status":${finite(fields.status)},"ms":${finite(fields.ms)}`;
    stream.write(`${line},${messageKey}:"${MESSAGE}"}\n`);
  };
}

/** pino writes a number that is not finite as null. */
function finite(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}

/** What pino writes an info line from: the level's cached prefix, the clock, the bindings, the destination and the message key. */
interface PlainParts {
  prefix: string;
  time: () => string;
  chindings: string;
  stream: DestinationStream;
  messageKey: string;
}

/**
 * The parts of a logger that writes its lines plainly, read from pino's fields by their
 * public symbols (pino.symbols), each checked to hold what pino keeps there; undefined
 * for a logger that would change a line on its way out, or whose fields are not as expected.
 */
function plainParts(logger: Logger): PlainParts | undefined {
  const { symbols } = pino;
  const formatters = internal(logger, symbols.formattersSym);
  const hooks = internal(logger, symbols.hooksSym);
  const stream = internal(logger, symbols.streamSym);
  const time = internal(logger, symbols.timeSym);
  const chindings = internal(logger, symbols.chindingsSym);
  const cache = internal(logger, symbols.lsCacheSym);
  const prefix = isObject(cache) ? Reflect.get(cache, logger.levels.values.info!) : undefined;
  const plain =
    internal(formatters, 'log') === undefined &&
    internal(logger, symbols.mixinSym) === undefined &&
    internal(hooks, 'streamWrite') === undefined &&
    isDestination(stream) &&
    internal(stream, symbols.needsMetadataGsym) !== true &&
    isClock(time) &&
    typeof chindings === 'string' &&
    typeof prefix === 'string';
  if (!plain) return undefined;
  return { prefix, time, chindings, stream, messageKey: JSON.stringify(internal(logger, symbols.messageKeySym)) };
}

/** A field of an object, unknown until checked; undefined when there is no object. */
function internal(holder: unknown, key: PropertyKey): unknown {
  return isObject(holder) ? Reflect.get(holder, key) : undefined;
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

function isDestination(value: unknown): value is DestinationStream {
  return isObject(value) && typeof Reflect.get(value, 'write') === 'function';
}

/** pino's time functions take nothing and return the line's time field, `,"time":…` or ''. */
function isClock(value: unknown): value is () => string {
  return typeof value === 'function';
}
