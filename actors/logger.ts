/** pino JSON logs, with the fields that must never be written redacted. */
import { pino, type Logger, type LoggerOptions } from 'pino';

export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.apiKey',
  '*.password',
  '*.token',
  '*.secret',
  '*.privateKey',
  '*.encryptedSessionMaterial',
  // The SMTP server's URL carries its password: a configuration logged whole, or the variable alone.
  'SMTP_URL',
  '*.SMTP_URL',
];

export function createLogger(options: { level: string; name?: string; destination?: pino.DestinationStream }): Logger {
  const settings: LoggerOptions = {
    level: options.level,
    name: options.name ?? 'peer',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: isoTime,
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}

let formattedAt = Number.NaN;
let formatted = '';

/** pino's isoTime, formatted once per millisecond: a busy node writes many lines within one, and formatting was a tenth of a line's cost. */
function isoTime(): string {
  const now = Date.now();
  if (now !== formattedAt) {
    formattedAt = now;
    formatted = `,"time":"${new Date(now).toISOString()}"`;
  }
  return formatted;
}
