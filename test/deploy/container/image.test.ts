import test from 'ava';
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { build } from 'esbuild';
import { ROOT, readText } from '../../support/deploy-manifests.js';

// The image cannot be built here (no Docker engine, no registry): these check its recipe.
const DOCKERFILE = readText('deploy/container/Dockerfile');
const dockerfile = DockerfileParser.parse(DOCKERFILE);
const stages = dockerfile.getFROMs().map((from) => from.getBuildStage());
const packageJson = JSON.parse(readText('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** The instructions of a build stage, in order. */
function stage(name: string): Instruction[] {
  const froms = dockerfile.getFROMs();
  const index = froms.findIndex((from) => from.getBuildStage() === name);
  const start = froms[index]!.getRange().start.line;
  const end = froms[index + 1]?.getRange().start.line ?? Number.POSITIVE_INFINITY;
  return dockerfile.getInstructions().filter((instruction) => {
    const line = instruction.getRange().start.line;
    return line > start && line < end;
  });
}

/** What follows each instruction of a kind, flags included, on one line. */
function argumentsOf(instructions: Instruction[], keyword: string): string[] {
  return instructions
    .filter((instruction) => instruction.getKeyword() === keyword)
    .map((instruction) =>
      instruction
        .getTextContent()
        .replace(/\\\n\s*/g, '')
        .slice(keyword.length)
        .trim(),
    );
}

/** A JSON-form instruction's words (CMD, HEALTHCHECK's CMD). */
function jsonWords(text: string): string[] {
  return JSON.parse(text.slice(text.indexOf('['))) as string[];
}

test('the Dockerfile has no problem its linter (dockerfile-utils) finds', (t) => {
  t.deepEqual(
    validate(DOCKERFILE).map((problem) => `${problem.range.start.line + 1}: ${problem.message}`),
    [],
  );
});

test('the image is built in two stages from one pinned Node image: the runtime packages in the first, the code and those packages in the second', (t) => {
  t.deepEqual(stages, ['deps', 'runtime']);
  const [arg] = dockerfile.getInitialARGs();
  t.is(arg?.getProperty()?.getName(), 'NODE_IMAGE');
  // An exact release: the attestation service's measurement covers the runtime's version.
  t.regex(arg?.getProperty()?.getValue() ?? '', /^node:\d+\.\d+\.\d+-[a-z]+-slim$/);
  for (const from of dockerfile.getFROMs()) t.is(from.getImage(), '${NODE_IMAGE}');

  const deps = stage('deps');
  t.deepEqual(argumentsOf(deps, 'COPY'), ['package.json package-lock.json ./']);
  t.deepEqual(
    argumentsOf(deps, 'RUN').filter((run) => /\bnpm ci\b/.test(run)),
    ['npm ci --omit=dev --no-audit --no-fund && npm cache clean --force'],
  );
  const runtime = stage('runtime');
  t.deepEqual(argumentsOf(runtime, 'COPY'), ['--from=deps /app/node_modules ./node_modules', '. .']);
  t.deepEqual(argumentsOf(runtime, 'RUN'), [], 'the runtime stage installs nothing of its own');
});

test('the image runs as a non-root user, set before its command, with the code not writable by it', (t) => {
  const runtime = stage('runtime');
  const users = argumentsOf(runtime, 'USER');
  t.deepEqual(users, ['1000:1000']);
  const keywords = runtime.map((instruction) => instruction.getKeyword());
  t.true(keywords.indexOf('USER') > keywords.lastIndexOf('COPY'), 'files are copied as root, so uid 1000 cannot change them');
  t.true(keywords.indexOf('USER') < keywords.indexOf('CMD'));
  t.false(argumentsOf(runtime, 'COPY').some((copy) => copy.includes('--chown')));
});

test("the image's health check asks the node's liveness path on its PORT, and its default command is the node, with no npm in between", (t) => {
  const runtime = stage('runtime');
  const env = Object.fromEntries(
    dockerfile
      .getENVs()
      .flatMap((instruction) => instruction.getProperties())
      .map((property) => [property.getName(), property.getValue()]),
  );
  t.like(env, { NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '3000' });
  const [healthcheck] = argumentsOf(runtime, 'HEALTHCHECK');
  const probe = jsonWords(healthcheck!);
  t.deepEqual(probe.slice(0, 2), ['node', '-e']);
  t.true(probe[2]!.includes('127.0.0.1:${process.env.PORT || 3000}/v1/health-check/live'));
  t.deepEqual(argumentsOf(runtime, 'EXPOSE')[0]!.split(' ').slice(0, 2), [env.PORT, '9464'], 'the gateway and the metrics port');
  t.deepEqual(jsonWords(argumentsOf(runtime, 'CMD')[0]!), ['node', '--import', 'tsx', 'deploy/main.ts']);
  t.truthy(packageJson.dependencies.tsx, 'tsx loads the sources at run time, so it is a runtime dependency');
});

/** Bare package names a module graph imports, from esbuild's analysis of it. */
async function packagesImportedBy(entryPoints: string[], platform: 'node' | 'browser'): Promise<Set<string>> {
  const result = await build({
    entryPoints,
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    outdir: 'out',
    metafile: true,
    platform,
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    loader: { '.css': 'empty' },
  });
  const imported = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const { path, external } of input.imports) {
      if (!external || path.startsWith('node:') || builtinModules.includes(path)) continue;
      imported.add(path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!);
    }
  }
  return imported;
}

/** The browser scripts the gateway bundles with esbuild when it starts: their packages are installed in the image too. */
function browserEntries(): string[] {
  return readdirSync(join(ROOT, 'gateway'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /-app\.ts$/.test(entry.name) && entry.parentPath.endsWith('client'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

test('every package the three entry points and the browser scripts import is a runtime dependency, so `npm ci --omit=dev` installs it', async (t) => {
  const server = await packagesImportedBy(['deploy/main.ts', 'deploy/indexer-main.ts', 'deploy/enclave-main.ts'], 'node');
  const browser = await packagesImportedBy(browserEntries(), 'browser');
  t.true(server.has('koa') && server.has('mongoose'), 'the analysis sees static and dynamic imports');
  t.true(browser.size > 0);
  const missing = [...new Set([...server, ...browser])].filter((name) => !(name in packageJson.dependencies)).sort();
  t.deepEqual(missing, [], 'imported at run time but not in dependencies');
});

/** A .dockerignore pattern as a test of a path relative to the build context (a folder pattern also leaves out what is under it). */
function ignores(pattern: string): (path: string) => boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  const regex = new RegExp(`^${source}(/.*)?$`);
  return (path) => regex.test(path);
}

test('.dockerignore leaves out installs, state, secrets and tests, and nothing the processes load or read', async (t) => {
  const patterns = readText('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  t.false(
    patterns.some((pattern) => pattern.startsWith('!')),
    'no exceptions: each would need checking too',
  );
  const left = (path: string) => patterns.some((pattern) => ignores(pattern)(path));
  for (const path of [
    'node_modules/koa/package.json',
    'data/store/lock',
    '.env',
    '.git/HEAD',
    'test/deploy/main.test.ts',
    'dist/deploy/main.js',
    'deploy/compose/node.env',
  ]) {
    t.true(left(path), `${path} is left out`);
  }
  const result = await build({
    entryPoints: ['deploy/main.ts', 'deploy/indexer-main.ts', 'deploy/enclave-main.ts', ...browserEntries()],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    outdir: 'out',
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    loader: { '.css': 'empty' },
  });
  // What the code reads beside what it imports: its package files, styles and the machines the engineers' page draws.
  const read = [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'gateway/hosted-page/palette.css',
    'machines/index.ts',
    'proto/gen/peer/indexer/v1/indexer.ts',
  ];
  const needed = [...Object.keys(result.metafile.inputs), ...read];
  t.true(needed.length > 100);
  t.deepEqual(
    needed.filter((path) => left(path)),
    [],
  );
});
