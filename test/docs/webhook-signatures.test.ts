/**
 * docs/webhook-signatures.md is what merchants copy from, so every value in its worked
 * example is recomputed here from the signing code, and both verification snippets are
 * run against it. Each checked block follows an `<!-- example:NAME -->` marker.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import test from 'ava';
import { isWebhookSecret, newWebhookSecret, signatureHeaders } from '../../actors/webhooks/signing.js';

const DOC = fileURLToPath(new URL('../../docs/webhook-signatures.md', import.meta.url));
const markdown = readFileSync(DOC, 'utf8').replace(/\r\n/g, '\n');

const blocks = new Map<string, string>();
for (const [, name, content] of markdown.matchAll(/<!-- example:([a-z-]+) -->\n```[a-z]*\n([\s\S]*?)\n```/g)) {
  if (blocks.has(name!)) throw new Error(`example block ${name} appears twice in ${DOC}`);
  blocks.set(name!, content!);
}

function block(name: string): string {
  const content = blocks.get(name);
  if (content === undefined) throw new Error(`no <!-- example:${name} --> fenced block in ${DOC}`);
  return content;
}

/** `name: value` lines; the value is everything after the first ": ", spaces included. */
function headerBlock(name: string): Record<string, string> {
  return Object.fromEntries(
    block(name)
      .split('\n')
      .map((line) => {
        const at = line.indexOf(': ');
        if (at < 0) throw new Error(`${name}: ${JSON.stringify(line)} is not "name: value"`);
        return [line.slice(0, at), line.slice(at + 2)];
      }),
  );
}

const inputs = Object.fromEntries(
  block('inputs')
    .split('\n')
    .map((line) => line.split(/\s+/, 2) as [string, string]),
);
const secret = inputs.secret!;
const previous = block('previous-secret');
const id = inputs.id!;
const timestamp = Number(inputs.timestamp);
const body = block('body');

const bytesFrom = (first: number) => Buffer.from(Array.from({ length: 24 }, (_, i) => first + i));

test('the example secrets are the byte runs the prose says, in our secret format', (t) => {
  t.true(isWebhookSecret(secret));
  t.true(isWebhookSecret(previous));
  t.deepEqual(Buffer.from(secret.slice('whsec_'.length), 'base64'), bytesFrom(0x00));
  t.deepEqual(Buffer.from(previous.slice('whsec_'.length), 'base64'), bytesFrom(0x18));
  t.is(timestamp, 1_795_000_000);
  t.regex(id, /^evt_ord_/);
});

test('the example body is one line of JSON', (t) => {
  t.false(body.includes('\n'));
  t.notThrows(() => JSON.parse(body));
});

test('the signed strings shown are the two schemes applied to the example', (t) => {
  t.is(block('signed-a'), `${timestamp}.${body}`);
  t.is(block('signed-b'), `${id}.${timestamp}.${body}`);
});

test('the example headers are exactly what signatureHeaders produces', (t) => {
  t.deepEqual(headerBlock('headers'), signatureHeaders({ id, timestamp, body, secrets: [secret] }));
});

test('the rotation headers are exactly what signatureHeaders produces with both secrets, newest first', (t) => {
  t.deepEqual(headerBlock('rotation-headers'), signatureHeaders({ id, timestamp, body, secrets: [secret, previous] }));
});

interface Case {
  scheme: 'peer' | 'standard';
  headers: Record<string, string>;
  body: string;
  secret: string;
  now: number;
  accepted: boolean;
  why: string;
}

function cases(): Case[] {
  const single = headerBlock('headers');
  const rotating = headerBlock('rotation-headers');
  const stranger = newWebhookSecret();
  const reserialised = JSON.stringify(JSON.parse(body), null, 2);
  return (['peer', 'standard'] as const).flatMap((scheme) => [
    { scheme, headers: single, body, secret, now: timestamp, accepted: true, why: 'the example' },
    { scheme, headers: rotating, body, secret, now: timestamp, accepted: true, why: 'rotation, new secret' },
    { scheme, headers: rotating, body, secret: previous, now: timestamp, accepted: true, why: 'rotation, previous secret' },
    { scheme, headers: single, body, secret: previous, now: timestamp, accepted: false, why: 'previous secret after the overlap' },
    { scheme, headers: rotating, body, secret: stranger, now: timestamp, accepted: false, why: 'another secret' },
    { scheme, headers: single, body: body.replace('FULFILLED"}', 'CANCELLED"}'), secret, now: timestamp, accepted: false, why: 'tampered body' },
    { scheme, headers: single, body: reserialised, secret, now: timestamp, accepted: false, why: 're-serialised JSON' },
    { scheme, headers: single, body, secret, now: timestamp + 300, accepted: true, why: '5 minutes late' },
    { scheme, headers: single, body, secret, now: timestamp + 301, accepted: false, why: 'over 5 minutes late' },
    { scheme, headers: single, body, secret, now: timestamp - 300, accepted: true, why: '5 minutes early' },
    { scheme, headers: single, body, secret, now: timestamp - 301, accepted: false, why: 'over 5 minutes early' },
  ]);
}

type Verifier = (headers: Record<string, string>, rawBody: Buffer, secret: string, nowSeconds: number) => boolean;

test('the Node.js snippet accepts the example, both rotation secrets and nothing else', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'webhook-doc-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'verify.mjs');
  await writeFile(file, block('node'));
  const snippet = (await import(pathToFileURL(file).href)) as { verifyPeerSignature: Verifier; verifyStandardWebhook: Verifier };

  for (const c of cases()) {
    const verify = c.scheme === 'peer' ? snippet.verifyPeerSignature : snippet.verifyStandardWebhook;
    t.is(verify(c.headers, Buffer.from(c.body, 'utf8'), c.secret, c.now), c.accepted, `${c.scheme}: ${c.why}`);
  }
});

const HARNESS = `
import base64, json, sys
from verify import verify_peer_signature, verify_standard_webhook
verifiers = {"peer": verify_peer_signature, "standard": verify_standard_webhook}
cases = json.load(sys.stdin)
print(json.dumps([verifiers[c["scheme"]](c["headers"], base64.b64decode(c["body"]), c["secret"], c["now"]) for c in cases]))
`;

// The snippet says Python 3.9 or later; without one the test shows as skipped rather than passing.
const python = spawnSync('python3', ['-c', 'import sys; sys.exit(sys.version_info < (3, 9))']).status === 0;

(python ? test : test.skip)('the Python snippet accepts the example, both rotation secrets and nothing else', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'webhook-doc-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'verify.py'), block('python'));
  await writeFile(join(dir, 'harness.py'), HARNESS);

  const all = cases();
  const run = promisify(execFile)('python3', ['harness.py'], { cwd: dir });
  run.child.stdin!.end(JSON.stringify(all.map((c) => ({ ...c, body: Buffer.from(c.body, 'utf8').toString('base64') }))));
  const results = JSON.parse((await run).stdout) as boolean[];

  t.is(results.length, all.length);
  all.forEach((c, i) => t.is(results[i], c.accepted, `${c.scheme}: ${c.why}`));
});
