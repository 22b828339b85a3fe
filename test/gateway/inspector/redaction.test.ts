/**
 * The inspector never answers a secret: the rules of gateway/inspector/redaction.ts as
 * a table, and over HTTP, no answer about any actor of an end-to-end run (the webhook
 * endpoint above all, its secret rotated once) holds a signing secret, an API key or a
 * credential header the merchant sends its receiver.
 */
import test from 'ava';
import { REDACTED, redact } from '../../../gateway/inspector/redaction.js';
import { answerOf } from '../../support/checkout.js';
import type { TestGateway } from '../../support/gateway.js';
import { inspectedRun } from '../../support/inspected-run.js';

const cases: Array<[string, unknown, unknown]> = [
  [
    'a field named secret, secrets or *Secret',
    { secret: 'x', secrets: [{ secret: 'y' }], clientSecret: 'z' },
    { secret: REDACTED, secrets: REDACTED, clientSecret: REDACTED },
  ],
  [
    'key material and hashes that verify credentials',
    { apiKeyHash: 'h', orderTokenHash: 'h', tokenHash: 'h', privateKey: 'k' },
    { apiKeyHash: REDACTED, orderTokenHash: REDACTED, tokenHash: REDACTED, privateKey: REDACTED },
  ],
  [
    'look-alikes that are no secret stay',
    { apiKeyHint: 'pk_live_…a1B2', destinationToken: '0x83', idempotencyKey: 'k', previousSecretExpiresAt: 't', requestHash: 'h', token: '0xusdc' },
    { apiKeyHint: 'pk_live_…a1B2', destinationToken: '0x83', idempotencyKey: 'k', previousSecretExpiresAt: 't', requestHash: 'h', token: '0xusdc' },
  ],
  [
    'a secret by its form, inside any string',
    { note: 'signed with whsec_AAECAwQFBgcICQoLDA0ODxAREhMU and pk_test_abcdefghijklmnop-_0123 today' },
    { note: `signed with ${REDACTED} and ${REDACTED} today` },
  ],
  [
    'custom headers as { key, value }: credential-looking names lose their values',
    {
      customHeaders: [
        { key: 'authorization', value: 'Bearer t' },
        { key: 'x-shop-token', value: 't' },
        { key: 'x-trace', value: 'keep' },
      ],
    },
    {
      customHeaders: [
        { key: 'authorization', value: REDACTED },
        { key: 'x-shop-token', value: REDACTED },
        { key: 'x-trace', value: 'keep' },
      ],
    },
  ],
  [
    'headers sent, as a record',
    { attempts: [{ requestHeaders: { 'x-api-key': 'k', cookie: 'c', 'content-type': 'application/json' } }] },
    { attempts: [{ requestHeaders: { 'x-api-key': REDACTED, cookie: REDACTED, 'content-type': 'application/json' } }] },
  ],
  ['plain values pass', [1, null, true, { total: { __bigint: '5' } }], [1, null, true, { total: { __bigint: '5' } }]],
];

for (const [rule, input, expected] of cases) {
  test(`redaction: ${rule}`, (t) => {
    t.deepEqual(redact(input), expected);
  });
}

/** Every inspector answer about `actor`: the actor, every page of its turns, and every turn from the snapshot and by replay. */
async function everyAnswer(gateway: TestGateway, actor: string): Promise<string[]> {
  const texts: string[] = [];
  const get = async (path: string) => {
    const answer = await gateway.admin('GET', path);
    texts.push(JSON.stringify(answer.body));
    return answerOf(answer, 200, path);
  };
  await get(`/internal/v1/actors/${actor}`);
  for (let after = 0; ; ) {
    const page = await get(`/internal/v1/actors/${actor}/history?limit=5&after=${after}`);
    for (const turn of page.turns) {
      await get(`/internal/v1/actors/${actor}/history/${turn.version}`);
      await get(`/internal/v1/actors/${actor}/history/${turn.version}?replay=true`);
    }
    if (!page.hasMore) return texts;
    after = page.nextAfter;
  }
}

test('no inspector answer about any actor of a run (the watchlist and the order sequences too) holds a webhook secret, an API key or a credential header', async (t) => {
  const { world, secrets } = await inspectedRun(t);
  const { gateway, merchant, webhook, key } = world;
  answerOf(
    await gateway.request('PATCH', `/api/v1/webhooks/${webhook.id}`, {
      key,
      body: { customHeaders: [{ key: 'Authorization', value: 'Bearer receiver-credential-42' }] },
    }),
    200,
    'custom headers',
  );
  await gateway.request('POST', `/api/v1/webhooks/${webhook.id}/test`, { key, body: {} });
  await gateway.node.system.effectsIdle();

  const forbidden = [...secrets, merchant.liveKey, merchant.sandboxKey, 'receiver-credential-42'];
  const search = await gateway.admin('GET', `/internal/v1/actors?query=${merchant.sandboxId}&limit=100`);
  const texts = [JSON.stringify(search.body)];
  const actors = [
    `merchant/${merchant.liveId}`,
    ...answerOf(search, 200, 'search').actors.map((actor: { kind: string; id: string }) => `${actor.kind}/${actor.id}`),
  ];
  for (const actor of actors) texts.push(...(await everyAnswer(gateway, actor)));
  texts.push(JSON.stringify((await gateway.admin('GET', '/internal/v1/actors/watchlist?limit=50&stuckAfter=1')).body));
  for (const actor of actors.filter((address) => address.startsWith('order/'))) {
    texts.push(JSON.stringify((await gateway.admin('GET', `/internal/v1/actors/${actor}/sequence`)).body));
  }

  t.true(actors.includes(`webhook/${webhook.id}`) && actors.some((actor) => actor.startsWith('delivery/')));
  const stored = JSON.stringify(await gateway.node.system.documents('webhook').findOne({ _id: webhook.id }));
  t.true(stored.includes(secrets[1]!) && stored.includes('receiver-credential-42'), 'the document holds what no answer may show');
  for (const secret of forbidden)
    t.false(
      texts.some((text) => text.includes(secret)),
      `${secret.slice(0, 8)}… appears in no answer`,
    );
  const endpoint = await gateway.admin('GET', `/internal/v1/actors/webhook/${webhook.id}`);
  t.is(endpoint.body.responseObject.context.secrets, REDACTED);
  t.deepEqual(endpoint.body.responseObject.context.customHeaders, [{ key: 'authorization', value: REDACTED }]);
  t.true(texts.length > 50, `${texts.length} answers read`);
});
