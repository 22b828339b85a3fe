/**
 * Run by webhooks.ts in a process of its own: the bare baseline of the webhook delivery
 * bench. For each request over IPC it POSTs the body it is given, signed afresh each time
 * with the node's own signer (both schemes, as a delivery is), to the receiver in a closed
 * loop at the concurrency asked, and sends back the rate and latency: with the global
 * `fetch` (undici, connections kept alive), or with node:http and a keep-alive agent, as
 * the node's sender posts (actors/webhooks/http-sender.ts). No actor, no store: only the
 * HTTP and the signing a delivery also does.
 */
import { Agent, request as httpRequest } from 'node:http';
import { signatureHeaders } from '../../actors/webhooks/signing.js';
import { closedLoop, type LoadResult } from './harness.js';

export interface FetchLoopRequest {
  url: string;
  /** A body the node delivered, sent verbatim. */
  body: string;
  eventId: string;
  secret: string;
  client: 'fetch' | 'node:http';
  inFlight: number;
  total: number;
}

export type FetchLoopReply = { ready: true } | { result: LoadResult } | { error: string };

const agent = new Agent({ keepAlive: true });

async function post({ url, body, eventId, secret, client }: FetchLoopRequest): Promise<void> {
  const headers = {
    ...signatureHeaders({ id: eventId, timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] }),
    'content-type': 'application/json',
    'user-agent': 'Peer-Webhooks/1',
  };
  if (client === 'fetch') {
    const response = await fetch(url, { method: 'POST', headers, body });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    return;
  }
  const bytes = Buffer.from(body, 'utf8');
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(bytes.length) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

const reply = (message: FetchLoopReply) => process.send!(message);

process.on('message', (request: FetchLoopRequest) => {
  closedLoop(() => post(request), request.inFlight, request.total).then(
    (result) => reply({ result }),
    (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
reply({ ready: true });
