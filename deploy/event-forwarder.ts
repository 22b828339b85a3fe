/**
 * What `npm run listen` does (Stripe's `stripe listen --forward-to`): streams the
 * merchant's events from a node and POSTs each to a local URL, signed as the node
 * signs webhooks (actors/webhooks/signing.ts, both schemes) with a secret of the
 * session, so a receiver under development verifies them as it will verify real ones.
 * The receiver need not be reachable from the node: the node never calls it.
 *
 * Events go one at a time, in the stream's order. A receiver that fails or is down
 * is reported and the next event goes on, as `stripe listen` does: the list endpoint
 * and the webhooks' own retries are for what a development receiver missed. A stream
 * that ends or breaks is opened again after `reconnectMs`, from the last event seen.
 */
import { sendAttempt, type AttemptRequest, type AttemptResult } from '../actors/webhooks/http-sender.js';
import { signatureHeaders } from '../actors/webhooks/signing.js';
import { readEventStream, StreamRefusedError, type StreamedEvent } from './event-stream-reader.js';

export interface ForwardOptions {
  /** The node, e.g. http://127.0.0.1:3000. */
  url: string;
  apiKey: string;
  /** Where each event is POSTed. */
  forward: string;
  /** The whsec_ secret the requests are signed with. */
  secret: string;
  types?: readonly string[];
  /** Resume after this event rather than start with the next one. */
  lastEventId?: string;
  /** How long to wait before opening a stream that ended again (default 1 s). */
  reconnectMs?: number;
  /** How long the receiver has for each event (default 10 s, as webhooks). */
  timeoutMs?: number;
  /** One line per event and per reconnection. */
  print: (line: string) => void;
  /** Stops forwarding; the promise resolves. */
  signal: AbortSignal;
  /** What makes one POST; tests may watch it. */
  send?: (request: AttemptRequest) => Promise<AttemptResult>;
  now?: () => number;
}

/** Forwards until `signal` aborts; rejects when the node refuses the key or the request, which no reconnection mends. */
export async function forwardEvents(options: ForwardOptions): Promise<void> {
  const { signal, print } = options;
  const send = options.send ?? sendAttempt;
  const now = options.now ?? Date.now;
  let lastEventId = options.lastEventId;
  const forwardOne = async (event: StreamedEvent) => {
    const headers = signatureHeaders({ id: event.id, timestamp: Math.floor(now() / 1000), body: event.data, secrets: [options.secret] });
    const result = await send({
      url: options.forward,
      headers,
      body: event.data,
      timeoutMs: options.timeoutMs ?? 10_000,
      allowPrivate: true,
      requireHttps: false,
    });
    lastEventId = event.id;
    const answer = result.status === null ? `failed: ${result.errorCode} ${result.error ?? ''}`.trim() : String(result.status);
    print(`${new Date(now()).toISOString()}  --> ${event.type} [${event.id}]  <-- ${answer}`);
  };
  while (!signal.aborted) {
    try {
      const onOpen = () => print(`connected to ${options.url}${lastEventId ? `, resuming after ${lastEventId}` : ''}`);
      await readEventStream({ url: options.url, apiKey: options.apiKey, lastEventId, types: options.types, signal, onOpen }, forwardOne);
      if (!signal.aborted) print('the node ended the stream; reconnecting');
    } catch (error) {
      if (signal.aborted) break;
      if (error instanceof StreamRefusedError && error.errorCode === 'EVENT_NOT_FOUND') {
        print(`${lastEventId} is no longer kept; resuming with new events (GET /api/v1/events lists what came between)`);
        lastEventId = undefined;
        continue;
      }
      // A refused key or request stays refused; only a busy or failing node is worth asking again.
      if (error instanceof StreamRefusedError && error.status >= 400 && error.status < 500 && error.status !== 429) throw error;
      print(`stream lost (${error instanceof Error ? error.message : String(error)}); reconnecting`);
    }
    await pause(options.reconnectMs ?? 1_000, signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
