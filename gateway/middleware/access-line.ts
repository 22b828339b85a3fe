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

type PinoInternals = Record<symbol, unknown>;

export function accessLine(logger: Logger): AccessLine {
  if (!formatsPlainly(logger)) return (context, fields) => logger.info({ ...context, ...fields }, MESSAGE);
  const internals = logger as unknown as PinoInternals;
  const level = logger.levels.values.info!;
  const prefix = (internals[pino.symbols.lsCacheSym] as Record<number, string>)[level]!;
  const time = internals[pino.symbols.timeSym] as () => string;
  const chindings = internals[pino.symbols.chindingsSym] as string;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  const messageKey = JSON.stringify(internals[pino.symbols.messageKeySym]);
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

function formatsPlainly(logger: Logger): boolean {
  const internals = logger as unknown as PinoInternals;
  const formatters = internals[pino.symbols.formattersSym] as { log?: unknown } | undefined;
  const hooks = internals[pino.symbols.hooksSym] as { streamWrite?: unknown } | undefined;
  const stream = internals[pino.symbols.streamSym] as Record<symbol, unknown> | undefined;
  return (
    formatters?.log === undefined &&
    internals[pino.symbols.mixinSym] === undefined &&
    hooks?.streamWrite === undefined &&
    stream !== undefined &&
    stream[pino.symbols.needsMetadataGsym] !== true &&
    typeof internals[pino.symbols.timeSym] === 'function' &&
    typeof internals[pino.symbols.chindingsSym] === 'string'
  );
}
