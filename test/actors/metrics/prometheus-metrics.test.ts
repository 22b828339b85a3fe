import test from 'ava';
import { readFile } from 'node:fs/promises';
import { PrometheusMetrics, noMetrics, type NodeMetrics } from '../../../actors/metrics/index.js';
import { parseExposition, sampleValue, type Family } from '../../support/prometheus-text.js';

const RUNTIME_FAMILIES: Record<string, Family['type']> = {
  peer_asks_total: 'counter',
  peer_ask_duration_seconds: 'histogram',
  peer_turns_total: 'counter',
  peer_turn_conflicts_total: 'counter',
  peer_effects_total: 'counter',
  peer_timers_fired_total: 'counter',
  peer_timer_lateness_seconds: 'histogram',
  peer_store_operation_duration_seconds: 'histogram',
  peer_lease_renew_failures_total: 'counter',
  peer_shards_held: 'gauge',
  peer_outbox_pending: 'gauge',
  peer_dead_letters_open: 'gauge',
  peer_metrics_gauge_read_failures_total: 'counter',
  peer_shard_count: 'gauge',
  peer_mailbox_depth: 'gauge',
  peer_timers_armed: 'gauge',
  peer_timers_due: 'gauge',
  peer_webhook_merchants_failing: 'gauge',
  peer_indexer_lag_blocks: 'gauge',
  peer_indexer_serving: 'gauge',
  peer_relayer_nonce_next: 'gauge',
  peer_relayer_nonce_mined: 'gauge',
  peer_relayer_transactions_under_way: 'gauge',
  peer_http_requests_total: 'counter',
  peer_http_request_duration_seconds: 'histogram',
  peer_webhook_attempts_total: 'counter',
  peer_webhook_attempt_duration_seconds: 'histogram',
  peer_relayer_receipts_total: 'counter',
  peer_relayer_gas_used_total: 'counter',
  peer_relayer_fees_paid_wei_total: 'counter',
  peer_relayer_gas_price_gwei: 'histogram',
  peer_attestation_calls_total: 'counter',
  peer_attestation_call_duration_seconds: 'histogram',
  peer_heap_size_limit_bytes: 'gauge',
};

async function scrape(metrics: PrometheusMetrics): Promise<Map<string, Family>> {
  return parseExposition(await metrics.metrics());
}

/** Calls every method of the interface once. */
function reportOnce(metrics: NodeMetrics): void {
  metrics.ask('order', 'ok', 0.0003);
  metrics.ask('order', 'timeout', 10.2);
  metrics.turn('order', 'applied');
  metrics.conflict('order');
  metrics.effect('order', 'webhook', 'retry');
  metrics.timerFired('order', 0.4);
  metrics.storeOperation('actors_order', 'replace', 0.002);
  metrics.leaseRenewFailure();
  metrics.shardsHeld(12);
  metrics.shardCount(64);
  metrics.observe({ pendingOutbox: async () => 3, deadLetters: async () => 1 });
  metrics.httpRequest('/api/v1/orders/:orderId', 'GET', 200, 0.004);
  metrics.webhookAttempt('ok', 0.08);
  metrics.relayerReceipt('0xAbC0000000000000000000000000000000000001', true, 21_000n, 2_000_000_000n);
  metrics.attestationCall('verifyPayment', 'ok', 0.3);
}

test('the text parses: every family has HELP and TYPE, names carry the prefix and their units', async (t) => {
  const metrics = new PrometheusMetrics();
  reportOnce(metrics);
  const families = await scrape(metrics);
  for (const [name, type] of Object.entries(RUNTIME_FAMILIES)) {
    t.is(families.get(name)?.type, type, name);
    t.true(families.get(name)!.help.length > 20, `${name} explains itself`);
  }
  const ours = [...families.keys()].filter((name) => name.startsWith('peer_'));
  t.deepEqual(ours.sort(), Object.keys(RUNTIME_FAMILIES).sort(), 'no family is undocumented here');
  for (const name of ours) {
    const type = families.get(name)!.type;
    if (type === 'counter') t.regex(name, /_total$/, name);
    if (type === 'histogram') t.regex(name, /_(seconds|gwei)$/, name);
  }
  t.is(metrics.contentType, 'text/plain; version=0.0.4; charset=utf-8');
});

test("Node's default metrics are on the registry", async (t) => {
  const families = await scrape(new PrometheusMetrics());
  for (const name of [
    'process_cpu_user_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_heap_size_used_bytes',
    'nodejs_eventloop_lag_seconds',
    'nodejs_version_info',
  ]) {
    t.true(families.has(name), name);
  }
  const without = await scrape(new PrometheusMetrics({ defaultMetrics: false }));
  t.false([...without.keys()].some((name) => name.startsWith('nodejs_') || name.startsWith('process_')));
});

test('counters and histograms move when the interface is called, by kind and outcome', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  reportOnce(metrics);
  metrics.ask('order', 'ok', 0.004);
  metrics.turn('order', 'applied');
  metrics.turn('merchant', 'rejected');
  metrics.effect('order', 'webhook', 'ok');
  metrics.effect('order', 'webhook', 'dead_lettered');
  const f = await scrape(metrics);

  t.is(sampleValue(f, 'peer_asks_total', { kind: 'order', outcome: 'ok' }), 2);
  t.is(sampleValue(f, 'peer_asks_total', { kind: 'order', outcome: 'timeout' }), 1);
  t.is(sampleValue(f, 'peer_ask_duration_seconds_count', { kind: 'order', outcome: 'ok' }), 2);
  t.is(sampleValue(f, 'peer_ask_duration_seconds_bucket', { kind: 'order', outcome: 'ok', le: '0.00025' }), 0);
  t.is(sampleValue(f, 'peer_ask_duration_seconds_bucket', { kind: 'order', outcome: 'ok', le: '0.0005' }), 1, 'a sub-millisecond ask has a bucket of its own');
  t.is(sampleValue(f, 'peer_ask_duration_seconds_bucket', { kind: 'order', outcome: 'ok', le: '0.005' }), 2);
  t.is(sampleValue(f, 'peer_ask_duration_seconds_bucket', { kind: 'order', outcome: 'timeout', le: '10' }), 0);
  t.is(sampleValue(f, 'peer_ask_duration_seconds_bucket', { kind: 'order', outcome: 'timeout', le: '30' }), 1);

  t.is(sampleValue(f, 'peer_turns_total', { kind: 'order', outcome: 'applied' }), 2);
  t.is(sampleValue(f, 'peer_turns_total', { kind: 'merchant', outcome: 'rejected' }), 1);
  t.is(sampleValue(f, 'peer_turn_conflicts_total', { kind: 'order' }), 1);
  t.is(sampleValue(f, 'peer_effects_total', { kind: 'order', type: 'webhook', outcome: 'retry' }), 1);
  t.is(sampleValue(f, 'peer_effects_total', { kind: 'order', type: 'webhook', outcome: 'ok' }), 1);
  t.is(sampleValue(f, 'peer_effects_total', { kind: 'order', type: 'webhook', outcome: 'dead_lettered' }), 1);
  t.is(sampleValue(f, 'peer_timers_fired_total', { kind: 'order' }), 1);
  t.is(sampleValue(f, 'peer_timer_lateness_seconds_bucket', { kind: 'order', le: '0.25' }), 0);
  t.is(sampleValue(f, 'peer_timer_lateness_seconds_bucket', { kind: 'order', le: '0.5' }), 1);
  t.is(sampleValue(f, 'peer_store_operation_duration_seconds_count', { collection: 'actors_order', operation: 'replace' }), 1);
  t.is(sampleValue(f, 'peer_store_operation_duration_seconds_bucket', { collection: 'actors_order', operation: 'replace', le: '0.0025' }), 1);
  t.is(sampleValue(f, 'peer_lease_renew_failures_total'), 1);
  t.is(sampleValue(f, 'peer_shards_held'), 12);

  metrics.shardsHeld(0);
  t.is(sampleValue(await scrape(metrics), 'peer_shards_held'), 0, 'a gauge goes down as well');
});

test('a kind’s first report makes every outcome a series at zero, so the first failure shows in rate()', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  metrics.ask('merchant', 'ok', 0.001);
  metrics.turn('merchant', 'applied');
  metrics.effect('merchant', 'notify', 'ok');
  const f = await scrape(metrics);
  for (const outcome of ['rejected', 'unknown_actor', 'timeout', 'unavailable', 'error'])
    t.is(sampleValue(f, 'peer_asks_total', { kind: 'merchant', outcome }), 0, outcome);
  for (const outcome of ['replayed', 'rejected', 'error']) t.is(sampleValue(f, 'peer_turns_total', { kind: 'merchant', outcome }), 0, outcome);
  t.is(sampleValue(f, 'peer_turn_conflicts_total', { kind: 'merchant' }), 0);
  for (const outcome of ['retry', 'dead_lettered']) t.is(sampleValue(f, 'peer_effects_total', { kind: 'merchant', type: 'notify', outcome }), 0, outcome);
});

test('labels are only kinds, types, collections, operations, route templates, methods, wallets and outcomes', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  reportOnce(metrics);
  const allowed = new Set(['kind', 'outcome', 'type', 'collection', 'operation', 'le', 'gauge', 'route', 'method', 'status_class', 'wallet', 'reason']);
  for (const family of (await scrape(metrics)).values()) {
    for (const sample of family.samples) for (const label of Object.keys(sample.labels)) t.true(allowed.has(label), `${sample.name} has label ${label}`);
  }
});

test('gauges read their callbacks at each scrape, not before', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  let pending = 5;
  let reads = 0;
  metrics.observe({
    pendingOutbox: async () => {
      reads++;
      return pending;
    },
  });
  t.is(reads, 0, 'observe() reads nothing');
  t.is(sampleValue(await scrape(metrics), 'peer_outbox_pending'), 5);
  pending = 2;
  t.is(sampleValue(await scrape(metrics), 'peer_outbox_pending'), 2);
  t.is(reads, 2, 'one read per scrape');
  t.deepEqual((await scrape(metrics)).get('peer_dead_letters_open')?.samples, [], 'a gauge nobody observed has no sample: unknown, not zero');

  metrics.observe({ deadLetters: async () => 7 });
  const f = await scrape(metrics);
  t.is(sampleValue(f, 'peer_dead_letters_open'), 7);
  t.is(sampleValue(f, 'peer_outbox_pending'), 2, 'a later observe() keeps the callbacks it does not name');
});

test('a gauge read that fails or hangs leaves that gauge out and is counted; the rest of the scrape is served', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false, gaugeReadTimeoutMs: 50 });
  metrics.turn('order', 'applied');
  metrics.observe({ pendingOutbox: () => Promise.reject(new Error('store down')), deadLetters: () => new Promise<number>(() => {}) });
  const f = await scrape(metrics);
  t.deepEqual(f.get('peer_outbox_pending')?.samples, []);
  t.deepEqual(f.get('peer_dead_letters_open')?.samples, []);
  t.is(sampleValue(f, 'peer_metrics_gauge_read_failures_total', { gauge: 'peer_outbox_pending' }), 1);
  t.is(sampleValue(f, 'peer_metrics_gauge_read_failures_total', { gauge: 'peer_dead_letters_open' }), 1);
  t.is(sampleValue(f, 'peer_turns_total', { kind: 'order', outcome: 'applied' }), 1);

  metrics.observe({ pendingOutbox: async () => 4, deadLetters: async () => 0 });
  const recovered = await scrape(metrics);
  t.is(sampleValue(recovered, 'peer_outbox_pending'), 4);
  t.is(sampleValue(recovered, 'peer_dead_letters_open'), 0);
});

test('each instance has its own registry: nodes in one process neither collide nor mix', async (t) => {
  const [a, b] = [new PrometheusMetrics(), new PrometheusMetrics()];
  a.turn('order', 'applied');
  t.is(sampleValue(await scrape(a), 'peer_turns_total', { kind: 'order', outcome: 'applied' }), 1);
  const other = await scrape(b);
  t.deepEqual(other.get('peer_turns_total')?.samples, [], 'the other node counted nothing');
});

test('default labels name the node on every series', async (t) => {
  const metrics = new PrometheusMetrics({ labels: { node: 'node-a' } });
  metrics.turn('order', 'applied');
  for (const family of (await scrape(metrics)).values()) for (const sample of family.samples) t.is(sample.labels.node, 'node-a', sample.name);
});

test('noMetrics takes every call and does nothing', (t) => {
  t.notThrows(() => reportOnce(noMetrics));
});

test('requests count by route template, method and status class; a made-up method is OTHER', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  metrics.httpRequest('/api/v1/orders/:orderId', 'GET', 200, 0.003);
  metrics.httpRequest('/api/v1/orders/:orderId', 'GET', 404, 0.002);
  metrics.httpRequest('/api/v1/orders/:orderId', 'GET', 201, 0.02);
  metrics.httpRequest('unmatched', 'BREW', 501, 0.001);
  const f = await scrape(metrics);
  t.is(sampleValue(f, 'peer_http_requests_total', { route: '/api/v1/orders/:orderId', method: 'GET', status_class: '2xx' }), 2);
  t.is(sampleValue(f, 'peer_http_requests_total', { route: '/api/v1/orders/:orderId', method: 'GET', status_class: '4xx' }), 1);
  t.is(sampleValue(f, 'peer_http_requests_total', { route: 'unmatched', method: 'OTHER', status_class: '5xx' }), 1);
  t.is(sampleValue(f, 'peer_http_request_duration_seconds_count', { route: '/api/v1/orders/:orderId', method: 'GET' }), 3);
  t.is(sampleValue(f, 'peer_http_request_duration_seconds_bucket', { route: '/api/v1/orders/:orderId', method: 'GET', le: '0.005' }), 2);
});

test('webhook attempts, relayer receipts and attestation calls move; their outcomes start at zero', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  const before = await scrape(metrics);
  t.is(sampleValue(before, 'peer_webhook_attempts_total', { outcome: 'timeout' }), 0, 'every outcome is a series from the start');
  t.is(sampleValue(before, 'peer_attestation_calls_total', { method: 'verifyPayment', outcome: 'ok' }), 0);

  metrics.webhookAttempt('ok', 0.05);
  metrics.webhookAttempt('timeout', 10);
  metrics.relayerReceipt('0xAbC0000000000000000000000000000000000001', true, 21_000n, 2_000_000_000n);
  metrics.relayerReceipt('0xabc0000000000000000000000000000000000001', false, 50_000n, 1_000_000_000n);
  metrics.attestationCall('verifyPayment', 'unavailable', 2);
  metrics.shardCount(64);
  const f = await scrape(metrics);
  t.is(sampleValue(f, 'peer_webhook_attempts_total', { outcome: 'ok' }), 1);
  t.is(sampleValue(f, 'peer_webhook_attempts_total', { outcome: 'timeout' }), 1);
  t.is(sampleValue(f, 'peer_webhook_attempt_duration_seconds_count'), 2);
  const wallet = '0xabc0000000000000000000000000000000000001';
  t.is(sampleValue(f, 'peer_relayer_receipts_total', { wallet, outcome: 'succeeded' }), 1, 'one wallet, whatever its spelling');
  t.is(sampleValue(f, 'peer_relayer_receipts_total', { wallet, outcome: 'reverted' }), 1);
  t.is(sampleValue(f, 'peer_relayer_gas_used_total', { wallet }), 71_000);
  t.is(sampleValue(f, 'peer_relayer_fees_paid_wei_total', { wallet }), 21_000 * 2e9 + 50_000 * 1e9);
  t.is(sampleValue(f, 'peer_relayer_gas_price_gwei_bucket', { le: '1' }), 1);
  t.is(sampleValue(f, 'peer_relayer_gas_price_gwei_bucket', { le: '2' }), 2);
  t.is(sampleValue(f, 'peer_attestation_calls_total', { method: 'verifyPayment', outcome: 'unavailable' }), 1);
  t.is(sampleValue(f, 'peer_attestation_call_duration_seconds_count', { method: 'verifyPayment' }), 1);
  t.is(sampleValue(f, 'peer_shard_count'), 64);
  t.true(sampleValue(f, 'peer_heap_size_limit_bytes')! > 100 * 1024 * 1024, 'the heap limit is read from V8');
});

test('labelled scrape-time gauges: a sample per key, and gauges of one source share one read per scrape', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  let indexerReads = 0;
  let walletReads = 0;
  metrics.observe({
    mailboxDepth: async () => ({ order: 3, merchant: 0 }),
    timers: async () => ({ armed: 12, due: 2 }),
    webhookMerchantsFailing: async () => ({ endpoint_disabled: 1, deliveries_retrying: 2 }),
    indexer: async () => {
      indexerReads++;
      return { lagBlocks: 7, serving: false };
    },
    relayerWallets: async () => {
      walletReads++;
      return { '0xaaaa': { nextNonce: 9, minedNonce: 7, underWay: 2 } };
    },
  });
  const f = await scrape(metrics);
  t.is(sampleValue(f, 'peer_mailbox_depth', { kind: 'order' }), 3);
  t.is(sampleValue(f, 'peer_mailbox_depth', { kind: 'merchant' }), 0);
  t.is(sampleValue(f, 'peer_timers_armed'), 12);
  t.is(sampleValue(f, 'peer_timers_due'), 2);
  t.is(sampleValue(f, 'peer_webhook_merchants_failing', { reason: 'endpoint_disabled' }), 1);
  t.is(sampleValue(f, 'peer_webhook_merchants_failing', { reason: 'deliveries_retrying' }), 2);
  t.is(sampleValue(f, 'peer_indexer_lag_blocks'), 7);
  t.is(sampleValue(f, 'peer_indexer_serving'), 0);
  t.is(sampleValue(f, 'peer_relayer_nonce_next', { wallet: '0xaaaa' }), 9);
  t.is(sampleValue(f, 'peer_relayer_nonce_mined', { wallet: '0xaaaa' }), 7);
  t.is(sampleValue(f, 'peer_relayer_transactions_under_way', { wallet: '0xaaaa' }), 2);
  t.deepEqual([indexerReads, walletReads], [1, 1], 'the indexer is asked once for its two gauges, the wallets once for their three');

  metrics.observe({ indexer: () => Promise.reject(new Error('indexer down')) });
  const failed = await scrape(metrics);
  t.deepEqual(failed.get('peer_indexer_lag_blocks')?.samples, []);
  t.deepEqual(failed.get('peer_indexer_serving')?.samples, []);
  t.is(sampleValue(failed, 'peer_metrics_gauge_read_failures_total', { gauge: 'peer_indexer_serving' }), 1);
  t.is(sampleValue(failed, 'peer_timers_due'), 2, 'the other gauges are still read');
});

test('docs/metrics.md describes every series', async (t) => {
  const documented = await readFile(new URL('../../../docs/metrics.md', import.meta.url), 'utf8');
  const families = [...(await scrape(new PrometheusMetrics({ defaultMetrics: false }))).keys()];
  t.true(families.length >= Object.keys(RUNTIME_FAMILIES).length);
  for (const name of families) t.true(documented.includes(`| \`${name}\` |`), `${name} has a row in docs/metrics.md`);
});
