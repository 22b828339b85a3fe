import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import {
  configOf,
  filled,
  PLACEHOLDER,
  ROOT,
  readText,
  refusedNames,
  roleOf,
  unavailable,
  yamlDocument,
  yamlDocuments,
} from '../../support/deploy-manifests.js';

const K8S = 'deploy/k8s';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** The schema each kind is checked against: kubernetes-models' validators, made from Kubernetes' own OpenAPI schemas. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
};
/** The operator's custom resource: no npm package ships its schema, so the tests below check what the platform relies on. */
const OPERATOR_KINDS = new Set(['mongodbcommunity.mongodb.com/v1/MongoDBCommunity']);

const kustomization = yamlDocument(`${K8S}/kustomization.yaml`) as {
  namespace: string;
  resources: string[];
  images: { name: string; newName: string; newTag: string }[];
};
const applied = kustomization.resources.flatMap((file) => yamlDocuments(`${K8S}/${file}`) as Manifest[]);
const secrets = yamlDocuments(`${K8S}/secrets.example.yaml`) as Manifest[];
const monitoring = yamlDocuments(`${K8S}/monitoring/service-monitor.yaml`) as Manifest[];

function named<T = Manifest>(kind: string, name: string, from: Manifest[] = applied): T {
  const found = from.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found as T;
}

const deployments = applied.filter((manifest) => manifest.kind === 'Deployment') as (Manifest & {
  spec: { replicas: number; selector: { matchLabels: Record<string, string> }; template: IPodTemplateSpec };
})[];
const node = named<(typeof deployments)[number]>('Deployment', 'platform-node');

function containerOf(deployment: (typeof deployments)[number]): IContainer {
  const [container, ...others] = deployment.spec.template.spec!.containers;
  if (!container || others.length > 0) throw new Error(`${deployment.metadata.name} has ${others.length + 1} containers, not one`);
  return container;
}

function matches(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

/** What the operator writes into each user's connection-string Secret; a sample of its shape for the configuration. */
const OPERATOR_URI = 'mongodb+srv://user:password@platform-mongodb-svc.peer.svc.cluster.local/admin?replicaSet=platform-mongodb&ssl=false';

/** The environment a Deployment's container gets: its ConfigMaps and Secrets (from the example), then its own env. */
function environmentOf(deployment: (typeof deployments)[number]): Record<string, string> {
  const container = containerOf(deployment);
  const environment: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(environment, named<{ data: Record<string, string> }>('ConfigMap', source.configMapRef.name!).data);
    if (source.secretRef) Object.assign(environment, named<{ stringData: Record<string, string> }>('Secret', source.secretRef.name!, secrets).stringData);
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) environment[variable.name] = variable.value;
    else if (variable.valueFrom?.fieldRef?.fieldPath === 'metadata.name') environment[variable.name] = `${deployment.metadata.name}-7c9f8d6b5-x2k4q`;
    else if (variable.valueFrom?.secretKeyRef?.key === 'connectionString.standardSrv') environment[variable.name] = OPERATOR_URI;
    else throw new Error(`${deployment.metadata.name} ${variable.name}: a source the test does not know`);
  }
  return environment;
}

test('every manifest is valid against the Kubernetes schema of its kind', (t) => {
  const all = [...applied, ...secrets, ...monitoring];
  t.true(all.length >= 15);
  for (const manifest of all) {
    const kind = `${manifest.apiVersion}/${manifest.kind}`;
    if (OPERATOR_KINDS.has(kind)) continue;
    const Model = MODELS[kind];
    if (!Model) {
      t.fail(`${kind} ${manifest.metadata.name} has no schema to be checked against`);
      continue;
    }
    t.notThrows(() => new Model(manifest as never).validate(), `${kind} ${manifest.metadata.name}`);
  }
});

test('the schema check refuses what Kubernetes would refuse', (t) => {
  const broken = structuredClone(node) as unknown as {
    spec: { replicas: unknown; template: { spec: { containers: { ports: { containerPort: unknown }[] }[] } } };
  };
  broken.spec.replicas = 'three';
  t.throws(() => new Deployment(broken as never).validate(), { message: /replicas must be integer/ });
  const noImage = structuredClone(node) as unknown as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
  delete noImage.spec.template.spec.containers[0]!.name;
  t.throws(() => new Deployment(noImage as never).validate(), { message: /must have required property name/ });
});

test('the kustomization applies every manifest of the folder but the example Secrets, in the namespace, with a pinned image', (t) => {
  const files = readdirSync(join(ROOT, K8S)).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml' && file !== 'secrets.example.yaml');
  t.deepEqual(kustomization.resources.filter((file) => !file.includes('/')).sort(), files.sort());
  t.true(kustomization.resources.includes('mongodb/mongodb.yaml'));
  t.is(kustomization.namespace, 'peer');
  t.is(named<{ metadata: { name: string } }>('Namespace', 'peer').metadata.name, 'peer');
  for (const image of kustomization.images) t.regex(image.newTag, /^\d+\.\d+\.\d+$/, image.name);
  for (const deployment of deployments) t.is(containerOf(deployment).image, 'peer-platform', `${deployment.metadata.name} takes the kustomization's image`);
  t.deepEqual(
    kustomization.images.map((image) => image.name),
    ['peer-platform'],
  );
});

test('the nodes: three, probed on the health paths of the port they serve, given longer to stop than their drain', (t) => {
  t.is(node.spec.replicas, 3);
  const container = containerOf(node);
  const { config, unknown } = configOf(filled(environmentOf(node)));
  t.deepEqual(unknown, []);
  const http = container.ports!.find((port) => port.name === 'http')!;
  // The image sets PORT (deploy/container/Dockerfile); the node serves its gateway there.
  t.regex(readText('deploy/container/Dockerfile'), new RegExp(`PORT=${http.containerPort}\\b`));
  t.is(config.PORT, http.containerPort);
  t.deepEqual(
    [container.startupProbe?.httpGet, container.livenessProbe?.httpGet, container.readinessProbe?.httpGet],
    [
      { path: '/v1/health-check/live', port: 'http' },
      { path: '/v1/health-check/live', port: 'http' },
      { path: '/v1/health-check/ready', port: 'http' },
    ],
  );
  t.true(node.spec.template.spec!.terminationGracePeriodSeconds! * 1000 > config.DRAIN_TIMEOUT_MS);
  const metrics = container.ports!.find((port) => port.name === 'metrics')!;
  t.is(config.METRICS_PORT, metrics.containerPort);
  t.is(config.METRICS_HOST, '0.0.0.0');
  t.is(node.spec.template.metadata!.annotations!['prometheus.io/port'], String(metrics.containerPort));
  t.is(node.spec.template.metadata!.annotations!['prometheus.io/path'], '/metrics');
  t.is(config.NATS_URL, 'nats://nats:4222', "the NATS chart's Service, from a release named nats");
  t.is(config.INDEXER_URL, `${named('Service', 'platform-indexer').metadata.name}:50051`);
  t.is(config.ENCLAVE_URL, `${named('Service', 'platform-enclave').metadata.name}:50052`);
});

test('the PodDisruptionBudget keeps two of the three nodes up, and selects the nodes only', (t) => {
  const budget = named<{ spec: { maxUnavailable?: number; minAvailable?: number; selector: { matchLabels: Record<string, string> } } }>(
    'PodDisruptionBudget',
    'platform-node',
  );
  t.true(budget.spec.maxUnavailable === 1 || budget.spec.minAvailable === 2);
  for (const deployment of deployments) {
    t.is(matches(budget.spec.selector.matchLabels, deployment.spec.template.metadata!.labels), deployment === node, deployment.metadata.name);
  }
});

test('every Deployment runs as non-root, read-only, without privilege, with resources and a selector of its own pods', (t) => {
  t.deepEqual(
    deployments.map((deployment) => deployment.metadata.name),
    ['platform-node', 'platform-indexer', 'platform-enclave'],
  );
  for (const deployment of deployments) {
    const { name } = deployment.metadata;
    const pod = deployment.spec.template.spec!;
    const container = containerOf(deployment);
    t.true(matches(deployment.spec.selector.matchLabels, deployment.spec.template.metadata!.labels), name);
    t.like(pod.securityContext, { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } }, name);
    t.like(container.securityContext, { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } }, name);
    t.false(pod.automountServiceAccountToken !== false, name);
    t.truthy(container.resources?.requests?.cpu && container.resources.requests.memory && container.resources.limits?.memory, name);
    t.truthy(container.readinessProbe && container.livenessProbe && container.startupProbe, name);
    t.deepEqual(
      container.volumeMounts?.map((mount) => mount.mountPath),
      ['/tmp'],
      `${name}: the one writable place, for tsx's cache`,
    );
  }
  // One writer of the fact log: never two indexers, not even during a rollout.
  const indexer = named<{ spec: { replicas: number; strategy: { type: string } } }>('Deployment', 'platform-indexer');
  t.deepEqual([indexer.spec.replicas, indexer.spec.strategy.type], [1, 'Recreate']);
});

test('the indexer and the attestation service run their own entry points, and start with a production configuration that knows every variable they set', (t) => {
  const scripts = (JSON.parse(readText('package.json')) as { scripts: Record<string, string> }).scripts;
  for (const [name, script] of [
    ['platform-indexer', 'indexer'],
    ['platform-enclave', 'enclave'],
  ] as const) {
    const deployment = deployments.find((candidate) => candidate.metadata.name === name)!;
    t.deepEqual(containerOf(deployment).command, ['node', '--import', 'tsx', scripts[script]!.replace(/^tsx /, '')], name);
    const { config, unknown } = configOf(filled(environmentOf(deployment)), roleOf(name));
    t.deepEqual(unknown, [], name);
    t.is(config.NODE_ENV, 'production', name);
  }
  const enclave = deployments.find((candidate) => candidate.metadata.name === 'platform-enclave')!;
  const { config } = configOf(filled(environmentOf(enclave)), 'enclave');
  t.is(config.MONGODB_DB, 'peer-enclave');
  t.is(config.ENCLAVE_PLATFORMS, 'live');
  t.deepEqual(containerOf(enclave).readinessProbe?.grpc, { port: Number(config.ENCLAVE_GRPC_ADDR.split(':')[1]) });
});

test('every Service sends to pods that exist, on ports they name', (t) => {
  for (const service of applied.filter((manifest) => manifest.kind === 'Service') as (Manifest & {
    spec: { selector: Record<string, string>; ports: { targetPort: string }[] };
  })[]) {
    const backends = deployments.filter((deployment) => matches(service.spec.selector, deployment.spec.template.metadata!.labels));
    t.is(backends.length, 1, service.metadata.name);
    const named = containerOf(backends[0]!).ports!.map((port) => port.name);
    for (const port of service.spec.ports) t.true(named.includes(port.targetPort), `${service.metadata.name} → ${port.targetPort}`);
  }
  const [monitor] = monitoring as (Manifest & { spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string }[] } })[];
  const nodeService = named<Manifest & { spec: { ports: { name: string }[] } }>('Service', 'platform-node');
  t.true(matches(monitor!.spec.selector.matchLabels, nodeService.metadata.labels));
  t.true(nodeService.spec.ports.some((port) => port.name === monitor!.spec.endpoints[0]!.port));
});

test('the example Secrets hold placeholders only, each refused by the configuration until it is replaced', (t) => {
  for (const secret of secrets as (Manifest & { stringData: Record<string, string> })[]) {
    for (const [name, value] of Object.entries(secret.stringData)) t.is(value, PLACEHOLDER, `${secret.metadata.name} ${name}`);
  }
  t.false(
    applied.some((manifest) => manifest.kind === 'Secret'),
    'no Secret is applied by the kustomization',
  );
  t.deepEqual(refusedNames(environmentOf(node)), ['CHAIN_RPC_URL', 'ID_SECRET', 'PEER_ADMIN_TOKEN', 'SMTP_URL']);
  t.deepEqual(refusedNames(environmentOf(named('Deployment', 'platform-enclave')), 'enclave'), ['CHAIN_RPC_URL', 'ENCLAVE_KEY_WRAPPING_KEY']);
  t.deepEqual(refusedNames(environmentOf(named('Deployment', 'platform-indexer')), 'indexer'), ['CHAIN_RPC_URL']);
  for (const map of applied.filter((manifest) => manifest.kind === 'ConfigMap') as (Manifest & { data: Record<string, string> })[]) {
    for (const [name, value] of Object.entries(map.data)) {
      t.false(
        /^0x[0-9a-fA-F]{64}$/.test(value) || /^whsec_/.test(value) || /:\/\/[^/\s]+:[^@/\s]+@/.test(value),
        `${map.metadata.name} ${name} looks like a secret`,
      );
    }
  }
});

test("MongoDB is the operator's replica set of three, and each process reads the connection string the operator writes for its user", (t) => {
  const mongodb = named<{
    spec: {
      type: string;
      members: number;
      security: { authentication: { modes: string[] } };
      users: { name: string; roles: { name: string; db: string }[]; connectionStringSecretName: string }[];
    };
  }>('MongoDBCommunity', 'platform-mongodb');
  t.like(mongodb.spec, { type: 'ReplicaSet', members: 3, security: { authentication: { modes: ['SCRAM'] } } });
  const secretOf = new Map(mongodb.spec.users.map((user) => [user.connectionStringSecretName, user]));
  for (const deployment of deployments) {
    const reference = containerOf(deployment).env!.find((variable) => variable.name === 'MONGODB_URI')!.valueFrom!.secretKeyRef!;
    const user = secretOf.get(reference.name!);
    t.truthy(user, `${deployment.metadata.name} reads a connection string the operator writes`);
    const { config } = configOf(filled(environmentOf(deployment)), roleOf(deployment.metadata.name));
    t.deepEqual(
      user!.roles.map((role) => `${role.name}@${role.db}`),
      [`readWrite@${config.MONGODB_DB}`],
      `${deployment.metadata.name}'s user may write its own database only`,
    );
  }
});

test("NATS is the maintainers' chart: a cluster of three with JetStream on persistent volumes", (t) => {
  const values = yamlDocument(`${K8S}/nats/values.yaml`) as {
    config: { cluster: { enabled: boolean; replicas: number }; jetstream: { enabled: boolean; fileStore: { pvc: { size: string } } } };
  };
  t.like(values.config, { cluster: { enabled: true, replicas: 3 }, jetstream: { enabled: true } });
  t.regex(values.config.jetstream.fileStore.pvc.size, /^\d+Gi$/);
  const readme = readText(`${K8S}/README.md`);
  t.true(readme.includes('helm install nats nats/nats --version 2.14.2'));
  t.true(readme.includes('helm install mongodb-kubernetes mongodb/mongodb-kubernetes --version 1.9.1'));
});

const kubectlMissing = unavailable('kubectl', ['version', '--client']);
(kubectlMissing ? test.skip : test)(`kubectl builds the kustomization${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, (t) => {
  const built = execFileSync('kubectl', ['kustomize', join(ROOT, K8S)], { encoding: 'utf8', timeout: 30_000 });
  const documents = parseAllDocuments(built).map((document) => document.toJS() as Manifest & { metadata: { namespace?: string } });
  t.is(documents.length, applied.length);
  for (const document of documents.filter((manifest) => manifest.kind !== 'Namespace')) t.is(document.metadata.namespace, 'peer', document.metadata.name);
  const image = documents.find((document) => document.kind === 'Deployment') as unknown as { spec: { template: IPodTemplateSpec } };
  t.is(image.spec.template.spec!.containers[0]!.image, 'registry.example.invalid/peer-platform:0.1.0');
});
