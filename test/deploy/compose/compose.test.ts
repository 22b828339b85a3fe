import test from 'ava';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { DCLinter } from 'dclint';
import { configOf, filled, PLACEHOLDER, ROOT, readText, refusedNames, roleOf, unavailable, yamlDocument } from '../../support/deploy-manifests.js';

const COMPOSE = 'deploy/compose/compose.yaml';
const compose = yamlDocument(COMPOSE) as { services: Record<string, Service>; secrets?: Record<string, { file: string }> };

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  env_file?: { path: string }[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
  read_only?: boolean;
  volumes?: string[];
  stop_grace_period?: string;
}

const PLATFORM = ['node-1', 'node-2', 'node-3', 'indexer', 'enclave'];
const NODES = ['node-1', 'node-2', 'node-3'];

/** The environment a platform service gets: its env files (from their examples) under its own `environment`. */
function environmentOf(name: string): Record<string, string> {
  const service = compose.services[name]!;
  const fromFiles = (service.env_file ?? []).map(({ path }) => parseEnv(readText(`deploy/compose/${path}.example`)) as Record<string, string>);
  const own = Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, String(value)]));
  return Object.assign({}, ...fromFiles, own);
}

function seconds(duration: string | undefined): number {
  const match = /^(\d+)s$/.exec(duration ?? '');
  if (!match) throw new Error(`not a duration in seconds: ${duration}`);
  return Number(match[1]);
}

test('the Compose file is valid against the Compose Specification, and passes the linter', (t) => {
  // dclint checks the file against the Compose Specification's JSON schema before any rule. The rules
  // off here are about key order only: the file is ordered by topology, not alphabetically. Ports are
  // quoted as Biome formats YAML, in double quotes.
  const linter = new DCLinter({
    rules: {
      'service-keys-order': 0,
      'services-alphabetical-order': 0,
      'top-level-properties-order': 0,
      'require-quotes-in-ports': [2, { quoteType: 'double' }],
    },
    quiet: false,
    debug: false,
    exclude: [],
  });
  // Typed here: dclint's declarations use extensionless imports, which this project's module resolution does not follow.
  const [result] = linter.lintFiles([join(ROOT, COMPOSE)], false) as { messages: { line: number; message: string; rule: string }[] }[];
  t.deepEqual(
    result?.messages.map((message) => `${message.line}: ${message.message} (${message.rule})`),
    [],
  );
});

test('the Compose file has the topology: three MongoDB members made one replica set, three NATS servers with JetStream, three nodes, the indexer, the attestation service, Prometheus and Grafana', (t) => {
  t.deepEqual(Object.keys(compose.services).sort(), [
    'enclave',
    'grafana',
    'indexer',
    'mongo-1',
    'mongo-2',
    'mongo-3',
    'mongo-init',
    'nats-1',
    'nats-2',
    'nats-3',
    'node-1',
    'node-2',
    'node-3',
    'prometheus',
  ]);
  const init = compose.services['mongo-init']!.command!.join(' ');
  for (const member of ['mongo-1:27017', 'mongo-2:27017', 'mongo-3:27017']) t.true(init.includes(member), member);
  t.true(init.includes('rs.initiate'));
  for (const name of ['mongo-1', 'mongo-2', 'mongo-3']) t.deepEqual(compose.services[name]!.command, ['mongod', '--replSet', 'rs0', '--bind_ip_all'], name);
  for (const name of PLATFORM) t.regex(environmentOf(name).MONGODB_URI!, /^mongodb:\/\/mongo-1:27017,mongo-2:27017,mongo-3:27017\/\?replicaSet=rs0$/, name);

  const natsConf = readText('deploy/compose/nats.conf');
  t.regex(natsConf, /jetstream\s*\{[^}]*store_dir/);
  for (const name of ['nats-1', 'nats-2', 'nats-3']) {
    t.true(natsConf.includes(`nats-route://${name}:6222`), name);
    t.is(compose.services[name]!.environment?.SERVER_NAME, name);
  }
  const urls = NODES.map((name) => String(environmentOf(name).NATS_URL).split(','));
  t.deepEqual(
    urls.map((servers) => servers[0]),
    ['nats://nats-1:4222', 'nats://nats-2:4222', 'nats://nats-3:4222'],
    'each node dials its own NATS server first',
  );
  for (const servers of urls) t.deepEqual([...servers].sort(), ['nats://nats-1:4222', 'nats://nats-2:4222', 'nats://nats-3:4222'], 'and knows every server');
  for (const name of NODES) t.is(environmentOf(name).NATS_REPLICAS, '3', `${name} keeps three copies of the streams`);
});

test('every platform service starts only once what it needs is healthy, and every service it waits on has a health check', (t) => {
  for (const name of NODES) {
    const after = compose.services[name]!.depends_on!;
    t.is(after['mongo-init']?.condition, 'service_completed_successfully', name);
    for (const needed of ['nats-1', 'nats-2', 'nats-3', 'indexer', 'enclave']) t.is(after[needed]?.condition, 'service_healthy', `${name} after ${needed}`);
  }
  for (const [name, service] of Object.entries(compose.services)) {
    for (const [needed, { condition }] of Object.entries(service.depends_on ?? {})) {
      if (condition === 'service_healthy') t.truthy(compose.services[needed]?.healthcheck, `${name} waits on ${needed}'s health`);
    }
  }
});

test('the platform services run the image of deploy/container read-only, with the commands of package.json', (t) => {
  const scripts = (JSON.parse(readText('package.json')) as { scripts: Record<string, string> }).scripts;
  const entries: Record<string, string> = { indexer: 'deploy/indexer-main.ts', enclave: 'deploy/enclave-main.ts' };
  t.is(scripts.indexer, `tsx ${entries.indexer}`);
  t.is(scripts.enclave, `tsx ${entries.enclave}`);
  for (const name of PLATFORM) {
    const service = compose.services[name]!;
    t.deepEqual(service.build, { context: '../..', dockerfile: 'deploy/container/Dockerfile' }, name);
    t.regex(service.image!, /^peer-platform:\$\{PEER_IMAGE_TAG:-\d+\.\d+\.\d+\}$/, name);
    t.true(service.read_only, name);
    const entry = entries[name];
    if (entry) t.deepEqual(service.command, ['node', '--import', 'tsx', entry], name);
    else t.is(service.command, undefined, `${name} runs the image's own command, the node`);
  }
});

test('no image is :latest or untagged, and every published port is bound to loopback', (t) => {
  for (const [name, service] of Object.entries(compose.services)) {
    t.regex(service.image ?? '', /^[^:]+:(?!latest$)[\w.${}:-]+$/, name);
    for (const port of service.ports ?? []) t.regex(port, /^127\.0\.0\.1:\d+:\d+$/, `${name} ${port}`);
  }
});

test('a node gets longer to stop than its drain may take', (t) => {
  for (const name of NODES) {
    const { config } = configOf(filled(environmentOf(name)));
    t.true(seconds(compose.services[name]!.stop_grace_period) * 1000 > config.DRAIN_TIMEOUT_MS, name);
  }
});

test('each platform service, once its env files are filled in, starts with a production configuration that knows every variable it sets', (t) => {
  for (const name of PLATFORM) {
    const { config, unknown } = configOf(filled(environmentOf(name)), roleOf(name));
    t.deepEqual(unknown, [], `${name} sets variables actors/config.ts does not define`);
    t.is(config.NODE_ENV, 'production', name);
    if (NODES.includes(name)) {
      t.is(config.METRICS_HOST, '0.0.0.0', name);
      t.is(config.INDEXER_URL, 'indexer:50051', name);
      t.is(config.ENCLAVE_URL, 'enclave:50052', name);
      t.is(config.NODE_ID, name);
    }
  }
  t.is(configOf(filled(environmentOf('indexer')), 'indexer').config.INDEXER_GRPC_ADDR, '0.0.0.0:50051');
  t.is(configOf(filled(environmentOf('enclave')), 'enclave').config.MONGODB_DB, 'peer-enclave', 'the attestation service keeps its own database');
});

test('the example env files hold no secret: every one is a placeholder the configuration refuses until it is replaced', (t) => {
  const secrets = ['ID_SECRET', 'PEER_ADMIN_TOKEN', 'SMTP_URL', 'CHAIN_RPC_URL', 'ENCLAVE_KEY_WRAPPING_KEY'];
  for (const file of ['platform', 'node', 'enclave']) {
    const values = parseEnv(readText(`deploy/compose/${file}.env.example`)) as Record<string, string>;
    for (const name of secrets) if (name in values) t.is(values[name], PLACEHOLDER, `${file}.env.example ${name}`);
    for (const [name, value] of Object.entries(values)) {
      t.false(/^0x[0-9a-fA-F]{64}$/.test(value) || /^whsec_/.test(value), `${file}.env.example ${name} looks like a key`);
    }
  }
  t.deepEqual(refusedNames(environmentOf('node-1')), ['CHAIN_RPC_URL', 'ID_SECRET', 'PEER_ADMIN_TOKEN', 'SMTP_URL']);
  t.deepEqual(refusedNames(environmentOf('indexer'), 'indexer'), ['CHAIN_RPC_URL']);
  t.deepEqual(refusedNames(environmentOf('enclave'), 'enclave'), ['CHAIN_RPC_URL', 'ENCLAVE_KEY_WRAPPING_KEY']);
  t.deepEqual(compose.secrets, { grafana_admin_password: { file: 'grafana-admin-password.txt' } }, "Grafana's password is a file of the operator's");
  const ignored = readText('.gitignore').split('\n');
  t.true(ignored.includes('deploy/compose/*.env') && ignored.includes('deploy/compose/grafana-admin-password.txt'));
});

test('Prometheus and Grafana read the observability files by their agreed paths, and the nodes serve metrics where Prometheus scrapes', (t) => {
  t.deepEqual(compose.services.prometheus!.volumes!.slice(0, 2), [
    '../observability/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
    '../observability/alerts.yml:/etc/prometheus/alerts.yml:ro',
  ]);
  t.is(compose.services.grafana!.volumes![0], '../observability/grafana:/etc/grafana/provisioning:ro');
  for (const name of NODES) t.is(configOf(filled(environmentOf(name))).config.METRICS_PORT, 9464, name);
  // The other bind mounts are of this folder.
  for (const [name, service] of Object.entries(compose.services)) {
    for (const volume of service.volumes ?? []) {
      const source = volume.split(':')[0]!;
      if (source.startsWith('./')) t.true(existsSync(join(ROOT, 'deploy/compose', source)), `${name} mounts ${source}`);
    }
  }
});

const natsMissing = unavailable('nats-server', ['--version']);
(natsMissing ? test.skip : test)(`nats-server accepts the cluster's configuration file${natsMissing ? ` (skipped: ${natsMissing})` : ''}`, (t) => {
  const output = execFileSync('nats-server', ['-t', '-c', join(ROOT, 'deploy/compose/nats.conf')], {
    env: { ...process.env, SERVER_NAME: 'nats-1' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.pass(output);
});

const composeMissing = unavailable('docker', ['compose', 'version']);
(composeMissing ? test.skip : test)(`docker compose accepts the file${composeMissing ? ` (skipped: ${composeMissing})` : ''}`, (t) => {
  // A copy with the examples in place of the operator's files, which compose requires to exist.
  const folder = mkdtempSync(join(tmpdir(), 'compose-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const copy = join(folder, 'deploy/compose');
  cpSync(join(ROOT, 'deploy/compose'), copy, { recursive: true });
  for (const file of ['platform', 'node', 'enclave']) renameSync(join(copy, `${file}.env.example`), join(copy, `${file}.env`));
  writeFileSync(join(copy, 'grafana-admin-password.txt'), 'test\n');
  execFileSync('docker', ['compose', '-f', join(copy, 'compose.yaml'), 'config', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.pass();
});
