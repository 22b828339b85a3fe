/** Helpers for tests on the machine's shared NATS server (loopback only); each test uses its own namespace and cleans it up. */
import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';

export const SHARED_NATS_URL = 'nats://127.0.0.1:4222';

export function uniqueNamespace(prefix = 't'): string {
  return `${prefix}${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Deletes every stream (KV buckets included) a test created under its namespace. */
export async function removeNamespace(namespace: string, url = SHARED_NATS_URL): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const mine = [`KV_${namespace}_shards`, `KV_${namespace}_nodes`, `${namespace.toUpperCase().replace(/[^A-Za-z0-9_-]/g, '_')}_EVENTS`];
    for await (const info of jsm.streams.list()) {
      if (mine.includes(info.config.name)) await jsm.streams.delete(info.config.name);
    }
  } finally {
    await nc.close();
  }
}

/** Polls `condition` every `everyMs` until it holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Polls a condition without fixed sleeps in the assertions; throws with `what` if it never holds. */
export async function eventually(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  if (!(await waitFor(condition, timeoutMs, 50))) throw new Error(`timed out waiting for ${what}`);
}
