import test from 'ava';
import { pino } from 'pino';
import { createLogger } from '../../actors/logger.js';
import { accessLine, type AccessFields } from '../../gateway/middleware/access-line.js';

/** A logger as the node makes it, its lines kept, with the access line's own child. */
function capturing(level = 'info', options: pino.ChildLoggerOptions = { redact: [] }) {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } });
  return { lines, logger: logger.child({ node: 'vm-1' }, options) };
}

/** The line with its time taken out: the two writers read the clock a moment apart. */
const timeless = (line: string) => line.replace(/"time":"[^"]*"/, '"time":"T"');

const PATHS = [
  '/api/v1/orders/ord_123',
  '/api/v1/orders/"quoted"\\back',
  '/api/v1/%E2%82%AC/caf\u00e9/\u20ac',
  '/tab\tand\u0001control',
  '/line\u2028separator',
];

for (const path of PATHS) {
  test(`the access line is pino's own line, byte for byte: ${JSON.stringify(path)}`, (t) => {
    const ours = capturing();
    const theirs = capturing();
    const context = { requestId: 'req_0123456789', merchantId: 'mer_"x"' };
    const fields: AccessFields = { method: 'GET', path, status: 200, ms: 0.42 };
    accessLine(ours.logger)(context, fields);
    theirs.logger.info({ ...context, ...fields }, 'request');
    t.is(ours.lines.length, 1);
    t.is(timeless(ours.lines[0]!), timeless(theirs.lines[0]!));
    t.deepEqual(JSON.parse(ours.lines[0]!).path, path);
  });
}

test('a duration that is not a number is written as pino writes it', (t) => {
  const ours = capturing();
  const theirs = capturing();
  const fields: AccessFields = { method: 'POST', path: '/', status: 500, ms: Number.NaN };
  accessLine(ours.logger)({ requestId: 'req_0123456789' }, fields);
  theirs.logger.info({ requestId: 'req_0123456789', ...fields }, 'request');
  t.is(timeless(ours.lines[0]!), timeless(theirs.lines[0]!));
  t.is(JSON.parse(ours.lines[0]!).ms, null);
});

test('nothing is written when the logger is above info, and lines follow a level changed later', (t) => {
  const { lines, logger } = capturing('warn');
  const write = accessLine(logger);
  write({ requestId: 'req_0123456789' }, { method: 'GET', path: '/', status: 200, ms: 1 });
  t.deepEqual(lines, []);
  logger.level = 'info';
  write({ requestId: 'req_0123456789' }, { method: 'GET', path: '/', status: 200, ms: 1 });
  t.is(lines.length, 1);
});

test('a logger that changes lines on their way out gets the access line through pino', (t) => {
  const lines: string[] = [];
  const logger = pino(
    { mixin: () => ({ zone: 'eu' }), formatters: { log: (object) => ({ ...object, shaped: true }) } },
    { write: (line: string) => void lines.push(line) },
  );
  accessLine(logger)({ requestId: 'req_0123456789' }, { method: 'GET', path: '/', status: 204, ms: 3 });
  t.like(JSON.parse(lines[0]!), { zone: 'eu', shaped: true, requestId: 'req_0123456789', method: 'GET', status: 204, msg: 'request' });
});
