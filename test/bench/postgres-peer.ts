/**
 * The plain Koa + zod + PostgreSQL peer (postgres-peer-node.ts) from the bench's side:
 * finds the local server (the socket in /var/run/postgresql, then 127.0.0.1:5432, trust
 * auth, database PGDATABASE or `test`), makes the peer's table in a schema of the
 * bench's own, starts the peer, and drops the schema afterwards.
 */
import pg from 'pg';
import { start, stop, type Child } from './children.js';

// One per bench process, so two runs on one server do not drop each other's table.
const SCHEMA = `bench42_peer_${process.pid}`;
const API_KEY = 'bench-peer-key';

export interface PostgresPeer {
  child: Child;
  /** Its create request, shaped as ours. */
  create: { method: 'POST'; headers: Record<string, string>; body: string };
  /** The server's version and its fsync setting, for the row's heading. */
  server: string;
  close(): Promise<void>;
}

interface Connection {
  host: string;
  port: number;
  database: string;
  user: string;
}

/** The first place a local PostgreSQL answers, or null. */
async function reachable(): Promise<Connection | null> {
  const database = process.env.PGDATABASE ?? 'test';
  const user = process.env.PGUSER ?? 'postgres';
  const hosts = process.env.PGHOST ? [process.env.PGHOST] : ['/var/run/postgresql', '127.0.0.1'];
  for (const host of hosts) {
    const connection = { host, port: Number(process.env.PGPORT ?? 5432), database, user };
    const client = new pg.Client({ ...connection, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      return connection;
    } catch {
      // The next place, or none.
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return null;
}

async function run(connection: Connection, ...statements: string[]): Promise<string[]> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    const answers: string[] = [];
    for (const statement of statements) {
      const result = await client.query(statement);
      answers.push(result.rows[0] ? String(Object.values(result.rows[0])[0]) : '');
    }
    return answers;
  } finally {
    await client.end();
  }
}

/** The peer started over a fresh table, or null where no PostgreSQL answers. */
export async function startPostgresPeer(pool = 16): Promise<PostgresPeer | null> {
  const connection = await reachable();
  if (!connection) return null;
  const [version, fsync] = await run(
    connection,
    'SHOW server_version',
    'SHOW fsync',
    `DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`,
    `CREATE SCHEMA ${SCHEMA}`,
    `CREATE TABLE ${SCHEMA}.orders (id text PRIMARY KEY, merchant_id text NOT NULL, status text NOT NULL, requested_usdc_amount numeric(24, 6), notes jsonb, created_at timestamptz NOT NULL)`,
  );
  const child = await start('./postgres-peer-node.ts', {
    stdout: 'ignore',
    env: {
      PEER_PG_HOST: connection.host,
      PEER_PG_PORT: String(connection.port),
      PEER_PG_DATABASE: connection.database,
      PEER_PG_USER: connection.user,
      PEER_PG_POOL: String(pool),
      PEER_PG_SCHEMA: SCHEMA,
      PEER_API_KEY: API_KEY,
    },
  });
  return {
    child,
    create: {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({ requestedUsdcAmount: '25', notes: { sku: 'bench' } }),
    },
    server: `PostgreSQL ${version}, fsync=${fsync}, synchronous_commit=on, pool of ${pool}`,
    close: async () => {
      await stop(child);
      await run(connection, `DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    },
  };
}
