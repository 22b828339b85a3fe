import test from 'ava';
import { pino } from 'pino';
import { createLogger } from '../../actors/logger.js';

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } }) };
}

test.serial("lines carry pino's ISO time, read afresh each millisecond", (t) => {
  const realNow = Date.now;
  let now = Date.UTC(2026, 10, 25, 3, 0, 0, 1);
  Date.now = () => now;
  try {
    const { lines, logger } = capture();
    logger.info('first');
    const expected = pino.stdTimeFunctions.isoTime();
    logger.info('same millisecond');
    now += 1;
    logger.info('next millisecond');
    const times = lines.map((line) => JSON.parse(line).time);
    t.is(`,"time":"${times[0]}"`, expected);
    t.deepEqual(times, ['2026-11-25T03:00:00.001Z', '2026-11-25T03:00:00.001Z', '2026-11-25T03:00:00.002Z']);
  } finally {
    Date.now = realNow;
  }
});

test('secrets are redacted wherever they sit', (t) => {
  const { lines, logger } = capture();
  logger.info({ merchant: { apiKey: 'pk_live_secret' }, req: { headers: { authorization: 'Bearer x', 'x-api-key': 'k' } } }, 'line');
  const line = JSON.parse(lines[0]!);
  t.is(line.merchant.apiKey, '[redacted]');
  t.is(line.req.headers.authorization, '[redacted]');
  t.is(line.req.headers['x-api-key'], '[redacted]');
  t.false(lines[0]!.includes('secret'));
});

test('SMTP_URL, which carries the mail server’s password, is redacted in a configuration logged whole or on its own', (t) => {
  const { lines, logger } = capture();
  const SMTP_URL = 'smtps://payouts:mail-password@smtp.example:465';
  logger.info({ config: { SMTP_URL, MAIL_FROM: 'payouts@example.com' } }, 'configuration');
  logger.info({ SMTP_URL }, 'variable');
  const [whole, alone] = lines.map((line) => JSON.parse(line));
  t.is(whole.config.SMTP_URL, '[redacted]');
  t.is(whole.config.MAIL_FROM, 'payouts@example.com');
  t.is(alone.SMTP_URL, '[redacted]');
  t.false(lines.join('').includes('mail-password'));
});
