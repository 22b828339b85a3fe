/**
 * The account's events as Server-Sent Events: one message per event (`id:` the event
 * id, `event:` its type, `data:` the webhook body on one line), in the order the node
 * recorded them, for as long as the client stays.
 *
 * Resuming. A client that sends Last-Event-ID gets everything recorded after that
 * event first; the id is looked up in the account's own events, so another account's
 * id, or one past the retention, is refused rather than taken for "from now".
 *
 * Waking. The recorder tells the log on this node when it records; in a cluster it
 * may run on another node, so the stream also looks every POLL_MS. A comment line every
 * KEEP_ALIVE_MS keeps proxies from closing a quiet connection.
 *
 * A key checked once would go on streaming after the merchant rotated it (say, because it
 * leaked): the stream asks whether its key is still the account's at most every POLL_MS,
 * and ends when it is not, so the client's reconnection is refused.
 */
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { EventRecord, MerchantEventLog } from '../../actors/merchant-events/event-log.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';

const POLL_MS = 1_000;
const KEEP_ALIVE_MS = 15_000;
/** What an EventSource waits before reconnecting (the `retry:` field). */
const RETRY_MS = 2_000;
const BATCH = 100;

export interface StreamRequest {
  types?: readonly string[];
  /** The event to resume after, already found in the account's own events; null: start with the next one. */
  after: EventRecord | null;
  /** Whether the key the stream was opened with is still the account's. */
  keyValid: () => Promise<boolean>;
}

/** Answers the request with the stream; it runs until the client leaves, the node stops or the key is rotated. */
export async function streamEvents(ctx: Context, log: MerchantEventLog, account: MerchantAccount, request: StreamRequest): Promise<void> {
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set('cache-control', 'no-store');
  ctx.set('x-accel-buffering', 'no');
  if (ctx.method === 'HEAD') {
    ctx.body = '';
    return;
  }
  const out = new PassThrough();
  ctx.body = out;
  ctx.req.socket.setNoDelay(true);
  // Nothing from before the first read is sent: a client that gave no Last-Event-ID starts now.
  const start = request.after?.seq ?? (await log.latestSeq());
  void pump(out, log, { merchantId: account.merchantId, types: request.types }, start, ctx.res, request.keyValid).catch((error: unknown) => {
    ctx.state.log?.warn({ err: error }, 'event stream ended on an error');
    out.end();
  });
}

async function pump(
  out: PassThrough,
  log: MerchantEventLog,
  filter: { merchantId: string; types?: readonly string[] },
  start: number,
  res: NodeJS.EventEmitter,
  keyValid: () => Promise<boolean>,
): Promise<void> {
  let seq = start;
  let keyCheckedAt = Date.now();
  let open = true;
  let wake: (() => void) | null = null;
  const nudge = () => {
    wake?.();
    wake = null;
  };
  const end = () => {
    open = false;
    nudge();
  };
  const unwatch = log.watch({ recorded: nudge, closed: end });
  // The response closes when the client goes away (the request's own 'close' comes once its body is read).
  res.once('close', end);
  out.once('close', end);
  const poll = setInterval(nudge, POLL_MS);
  const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  try {
    await write(out, `retry: ${RETRY_MS}\n: connected\n\n`);
    while (open) {
      const waiting = new Promise<void>((resolve) => (wake = resolve));
      if (Date.now() - keyCheckedAt >= POLL_MS) {
        keyCheckedAt = Date.now();
        if (!(await keyValid())) break;
      }
      const rows = await log.after(filter, seq, BATCH);
      for (const row of rows) {
        if (!open) break;
        await write(out, `id: ${row._id}\nevent: ${row.type}\ndata: ${JSON.stringify(row.payload)}\n\n`);
        seq = row.seq;
      }
      // A full batch may have more behind it: read again at once.
      if (open && rows.length < BATCH) await waiting;
    }
  } finally {
    clearInterval(poll);
    clearInterval(keepAlive);
    unwatch();
    out.end();
  }
}

/** Writes and waits for the socket to take it when the buffer is full, so a slow client holds back its own stream only. */
function write(out: PassThrough, text: string): Promise<void> {
  if (out.write(text)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
  });
}
