/**
 * `npm run listen -- --forward http://localhost:4000/hooks`: forwards the merchant's
 * events from a node to a local receiver, signed as webhooks are (deploy/event-forwarder.ts).
 *
 *   --forward URL      where to POST each event (required)
 *   --url URL          the node (default http://127.0.0.1:3000)
 *   --api-key KEY      the merchant's key (default PEER_API_KEY)
 *   --secret whsec_…   sign with this secret (default: a new one for the session, printed)
 *   --events A,B       only these event types
 *   --last-event-id ID resume after this event
 *
 * Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { isWebhookSecret, newWebhookSecret } from '../actors/webhooks/signing.js';
import { forwardEvents } from './event-forwarder.js';

const { values } = parseArgs({
  options: {
    forward: { type: 'string' },
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    'api-key': { type: 'string' },
    secret: { type: 'string' },
    events: { type: 'string' },
    'last-event-id': { type: 'string' },
  },
});

const apiKey = values['api-key'] ?? process.env.PEER_API_KEY;
if (!values.forward) fail('usage: npm run listen -- --forward http://localhost:4000/hooks [--url URL] [--api-key KEY] [--secret whsec_…] [--events A,B]');
if (!URL.canParse(values.forward)) fail(`--forward ${values.forward} is not a URL`);
if (!URL.canParse(values.url)) fail(`--url ${values.url} is not a URL`);
if (!apiKey) fail('set PEER_API_KEY or pass --api-key');
if (values.secret !== undefined && !isWebhookSecret(values.secret)) fail('--secret must be whsec_ followed by 24 bytes of base64');
const secret = values.secret ?? newWebhookSecret();

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());

process.stdout.write(`Ready! Forwarding ${values.url} events to ${values.forward}. Your webhook signing secret is ${secret} (Ctrl-C to quit)\n`);
try {
  await forwardEvents({
    url: values.url,
    apiKey,
    forward: values.forward,
    secret,
    types: values.events
      ?.split(',')
      .map((type) => type.trim())
      .filter(Boolean),
    lastEventId: values['last-event-id'],
    print: (line) => process.stdout.write(`${line}\n`),
    signal: controller.signal,
  });
} catch (error) {
  fail(`the node refused the stream: ${error instanceof Error ? error.message : String(error)}`);
}
// Stopped by a signal: pooled connections to the receiver must not keep the process waiting.
process.exit(0);

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
