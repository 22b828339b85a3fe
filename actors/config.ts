/**
 * The node's configuration: environment variables, validated once at start. The
 * defaults run everything embedded in one process. A bad value stops the start with
 * a message naming the variable.
 */
import { hostname } from 'node:os';
import { z } from 'zod';

const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: integer(0, 65535).default(3000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    NODE_ID: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only, at most 64')
      .default(`${hostname().replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 40)}-${process.pid}`),
    MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://').optional(),
    MONGODB_DB: z.string().min(1).optional(),
    NATS_URL: z.string().regex(/^(nats|tls):\/\/[^\s]+$/, 'must be a nats:// or tls:// URL').optional(),
    NATS_NAMESPACE: z
      .string()
      .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'lower-case letters, digits, _ and -, starting with a letter')
      .default('peer'),
    SHARD_COUNT: integer(1, 4096).default(64),
    LEASE_TTL_MS: integer(1000, 300_000).default(10_000),
    ASK_TIMEOUT_MS: integer(100, 300_000).default(10_000),
    ATTEMPT_TIMEOUT_MS: integer(50, 300_000).default(2_000),
    ACTOR_CACHE_SIZE: integer(1, 10_000_000).default(10_000),
    TIMER_POLL_MS: integer(10, 60_000).default(1_000),
    DRAIN_TIMEOUT_MS: integer(100, 120_000).default(8_000),
  })
  .superRefine((env, ctx) => {
    if (env.NATS_URL && !env.MONGODB_URI) {
      ctx.addIssue({
        code: 'custom',
        path: ['NATS_URL'],
        message:
          'is set but MONGODB_URI is not: a cluster node needs a store every node reaches, and the embedded store lives inside one process',
      });
    }
  });

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
}
