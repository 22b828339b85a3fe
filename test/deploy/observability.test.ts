/**
 * deploy/observability/: the alert rules and Prometheus' configuration pass promtool,
 * every alert fires and holds back as alerts.test.yml says, the Grafana dashboard is well
 * formed, and every metric the dashboard charts or an alert reads is one a running node
 * exports, so neither can watch a series that does not exist.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestGateway } from '../support/gateway.js';
import { parseExposition, type Family } from '../support/prometheus-text.js';
import { metricNames, ruleExpressions } from '../support/promql-names.js';

const run = promisify(execFile);
const dir = fileURLToPath(new URL('../../deploy/observability/', import.meta.url));
const read = (path: string) => readFile(`${dir}${path}`, 'utf8');

/** Series Prometheus makes itself for every target. */
const PROMETHEUS_SERIES = new Set(['up']);

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Array<{ refId: string; expr: string; datasource: { type: string; uid: string } }>;
}

interface Dashboard {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query: unknown; current?: { value: string } }> };
}

async function dashboard(): Promise<Dashboard> {
  return JSON.parse(await read('grafana/dashboards/peer-platform.json')) as Dashboard;
}

/** promtool from Debian's `prometheus` package; null where it is not installed. */
const promtool = await run('promtool', ['--version']).then(
  () => 'promtool',
  () => null,
);
const withPromtool = promtool ? test : test.skip;
if (!promtool) console.warn('promtool is not installed (apt-get install prometheus): the promtool checks of deploy/observability are skipped');

withPromtool('promtool: the alert rules and the Prometheus configuration are valid', async (t) => {
  const rules = await run('promtool', ['check', 'rules', 'alerts.yml'], { cwd: dir });
  t.regex(rules.stdout, /SUCCESS: \d+ rules found/);
  const config = await run('promtool', ['check', 'config', 'prometheus.yml'], { cwd: dir });
  t.regex(config.stdout, /prometheus\.yml is valid prometheus config file syntax/);
});

withPromtool('promtool: every alert fires on the series of its trouble and holds back on the others (alerts.test.yml)', async (t) => {
  const result = await run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: dir }).catch((error: { stdout?: string; stderr?: string }) => error);
  t.regex(`${result.stdout ?? ''}${result.stderr ?? ''}`, /SUCCESS/, `${result.stdout ?? ''}${result.stderr ?? ''}`);
  const alerts = [...(await read('alerts.yml')).matchAll(/^\s*- alert: (\w+)$/gm)].map((match) => match[1]);
  const tested = new Set([...(await read('alerts.test.yml')).matchAll(/^\s*alertname: (\w+)$/gm)].map((match) => match[1]));
  t.true(alerts.length >= 10);
  for (const alert of alerts) t.true(tested.has(alert), `${alert} has a unit test`);
});

withPromtool('promtool: every query of the dashboard is valid PromQL', async (t) => {
  // Checked as the expressions of recording rules, Grafana's variables given values as Grafana does.
  const board = await dashboard();
  const rules = board.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ record: `dashboard:panel_${panel.id}_${target.refId}`, expr: grafanaToPromql(target.expr) })),
  );
  t.true(rules.length > 30);
  const folder = await mkdtemp(join(tmpdir(), 'peer-dashboard-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const file = join(folder, 'dashboard-queries.yml');
  await writeFile(file, JSON.stringify({ groups: [{ name: 'dashboard', rules }] }));
  const result = await run('promtool', ['check', 'rules', file]).catch((error: { stdout?: string; stderr?: string }) => error);
  t.regex(result.stdout ?? '', new RegExp(`SUCCESS: ${rules.length} rules found`), `${result.stdout ?? ''}${result.stderr ?? ''}`);
});

/** A dashboard query as Prometheus receives it: the node variable as all nodes, the rate interval as four scrapes. */
function grafanaToPromql(expr: string): string {
  return expr.replaceAll('$__rate_interval', '1m').replaceAll('$instance', '.*');
}

test('every alert says how bad it is, what it means, what to do, and where its runbook is', async (t) => {
  const rules = (await read('alerts.yml')).split(/^\s*- alert: /m).slice(1);
  t.true(rules.length >= 10);
  for (const rule of rules) {
    const name = rule.slice(0, rule.indexOf('\n'));
    t.regex(rule, /severity: (critical|warning)\n/, name);
    t.regex(rule, /summary: /, name);
    t.regex(rule, /description: /, name);
    t.regex(rule, new RegExp(`runbook: docs/operations\\.md#${name.toLowerCase()}\\n`), name);
  }
  for (const name of ['DeadLettersGrowing', 'IndexerLagging', 'ShardUnserved', 'WebhooksFailingForMerchant', 'HeapNearLimit']) {
    t.true(
      rules.some((rule) => rule.startsWith(`${name}\n`)),
      name,
    );
  }
});

test('the dashboard: unique panel ids, rows and panels on the 24-column grid, every panel queries the data source variable', async (t) => {
  const board = await dashboard();
  t.is(board.uid, 'peer-platform');
  const ids = board.panels.map((panel) => panel.id);
  t.is(new Set(ids).size, ids.length, 'panel ids are unique');
  const variable = board.templating.list.find((each) => each.name === 'DS_PROMETHEUS');
  t.is(variable?.type, 'datasource');
  t.is(variable?.query, 'prometheus');
  const datasources = await read('grafana/datasources/prometheus.yaml');
  t.true(datasources.includes(`uid: ${variable?.current?.value}`), 'the variable defaults to the provisioned data source');

  const rows = board.panels.filter((panel) => panel.type === 'row').map((panel) => panel.title);
  for (const row of [
    'HTTP',
    'Actors',
    'Outbox and dead letters',
    'Timers',
    'Webhooks',
    'Chain and indexer',
    'Relayer',
    'Attestation service',
    'Process and heap',
  ])
    t.true(rows.includes(row), `row ${row}`);
  const charts = board.panels.filter((panel) => panel.type !== 'row');
  t.true(charts.length > 30);
  for (const panel of charts) {
    t.true(panel.gridPos.x >= 0 && panel.gridPos.w > 0 && panel.gridPos.x + panel.gridPos.w <= 24, `${panel.title} fits the grid`);
    t.deepEqual(panel.datasource, { type: 'prometheus', uid: '${DS_PROMETHEUS}' }, panel.title);
    t.true((panel.targets?.length ?? 0) > 0, `${panel.title} has a query`);
    const refIds = panel.targets!.map((target) => target.refId);
    t.is(new Set(refIds).size, refIds.length, `${panel.title}: refIds are unique`);
    for (const target of panel.targets!) {
      t.deepEqual(target.datasource, { type: 'prometheus', uid: '${DS_PROMETHEUS}' }, panel.title);
      t.true(metricNames(target.expr).length > 0, `${panel.title}: ${target.expr} reads a metric`);
    }
  }
  const provider = await read('grafana/dashboards/peer-platform.yaml');
  t.regex(provider, /path: \/etc\/grafana\/provisioning\/dashboards\n/, 'the provider loads the folder compose mounts the dashboard in');
});

test('the PromQL reader finds the metrics and only them', (t) => {
  t.deepEqual(
    metricNames(
      'histogram_quantile(0.95, sum by (route, le) (rate(peer_http_request_duration_seconds_bucket{job="peer-node",route=~"a|b"}[$__rate_interval])))',
    ),
    ['peer_http_request_duration_seconds_bucket'],
  );
  t.deepEqual(metricNames('max(peer_shard_count) - sum(peer_shards_held) > 0 and on() absent(up == 1)'), ['peer_shard_count', 'peer_shards_held', 'up']);
  t.deepEqual(ruleExpressions('  - alert: A\n    expr: up == 0\n  - alert: B\n    expr: >-\n      a\n      / b\n    for: 1m\n'), ['up == 0', 'a / b']);
});

test('every metric the dashboard charts and the alerts read is one a running node exports', async (t) => {
  const gateway = await startTestGateway({ METRICS_PORT: 0 });
  t.teardown(() => gateway.stop());
  // A request, so the request series have samples as well as their family.
  t.is((await gateway.request('GET', '/v1/health-check')).status, 200);
  const response = await fetch(`${gateway.node.metricsUrl}/metrics`);
  const families = parseExposition(await response.text());

  const board = await dashboard();
  const used = new Map<string, string>();
  for (const panel of board.panels)
    for (const target of panel.targets ?? []) for (const name of metricNames(target.expr)) used.set(name, `dashboard: ${panel.title}`);
  for (const expr of ruleExpressions(await read('alerts.yml'))) for (const name of metricNames(expr)) used.set(name, `alerts.yml: ${expr}`);
  t.true(used.size > 30, `${used.size} metrics are read`);
  for (const [name, where] of used) {
    if (PROMETHEUS_SERIES.has(name)) continue;
    t.true(exported(families, name), `${name} (${where}) is exported by the node`);
  }
  t.true(used.has('peer_http_requests_total') && families.get('peer_http_requests_total')!.samples.length > 0, 'the request counted shows');
});

/** A family the text announces, or a histogram's `_bucket`, `_sum` or `_count`. */
function exported(families: Map<string, Family>, name: string): boolean {
  if (families.has(name)) return true;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return base !== name && ['histogram', 'summary'].includes(families.get(base)?.type ?? '');
}
