import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http, type Address } from 'viem';
import { unifiedPaymentVerifierAbi } from '../../indexer/chain/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Each node keeps its embedded store in a folder of its own here, never in the repository's ./data.
const dataDirs = mkdtempSync(join(tmpdir(), 'peer-main-test-'));
test.after.always(() => rmSync(dataDirs, { recursive: true, force: true }));

/** The node's own start line: other components (the local conversion provider) log a url of their own before it. */
const NODE_READY = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"node started"/;

function startPlatform(env: Record<string, string>, entry = 'deploy/main.ts', ready = NODE_READY) {
  const child = spawn(process.execPath, ['--import=tsx', entry], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: mkdtempSync(join(dataDirs, 'node-')), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 30 s:\n${stdout}\n${stderr}`)), 30_000);
    child.stdout.on('data', () => {
      const match = ready.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', () => reject(new Error(`exited before starting:\n${stdout}\n${stderr}`)));
  });
  return { child, url, output: () => ({ stdout, stderr }) };
}

test('npm start answers the health check and exits 0 within 10 s of SIGTERM', async (t) => {
  t.timeout(60_000);
  const platform = startPlatform({});
  // A failed assertion must not leave the node running and the suite waiting on it.
  t.teardown(() => void platform.child.kill('SIGKILL'));
  const url = await platform.url;

  const response = await fetch(`${url}/v1/health-check`);
  t.is(response.status, 200);
  t.truthy(response.headers.get('x-request-id'));
  const body = (await response.json()) as Record<string, any>;
  t.like(body, { success: true, statusCode: 200, responseObject: { status: 'healthy', environment: 'development', version: '0.1.0' } });
  const report = body.responseObject;
  t.deepEqual(report.services.database.status, 'connected');
  t.deepEqual(report.services.redis.status, 'connected');
  t.true(typeof report.uptime === 'number' && report.uptime >= 0);
  t.false(Number.isNaN(Date.parse(report.timestamp)));
  for (const field of ['used', 'total', 'percentage']) t.is(typeof report.memory[field], 'number');

  const missing = await fetch(`${url}/nowhere`);
  t.is(missing.status, 404);
  t.deepEqual(await missing.json(), { success: false, message: 'Not found', responseObject: null, statusCode: 404, errorCode: 'NOT_FOUND' });

  // The attestation service runs in-process, and the local chain takes its signer as the witness.
  const { stdout } = platform.output();
  const enclave = JSON.parse(stdout.split('\n').find((line) => line.includes('"msg":"enclave listening"'))!);
  const document = (await (await fetch(`${enclave.http}/attestation`)).json()) as Record<string, any>;
  t.is(document.responseObject.signer, enclave.signer);
  t.is(document.responseObject.measurement, enclave.measurement);
  const local = JSON.parse(stdout.split('\n').find((line) => line.includes('"msg":"local chain started"'))!);
  const chain = createPublicClient({ transport: http(local.rpcUrl) });
  t.true(await chain.readContract({ address: local.verifier as Address, abi: unifiedPaymentVerifierAbi, functionName: 'isWitness', args: [enclave.signer] }));

  const sent = Date.now();
  platform.child.kill('SIGTERM');
  const [code] = (await once(platform.child, 'exit')) as [number | null];
  t.is(code, 0, platform.output().stderr);
  t.true(Date.now() - sent < 10_000);
  t.regex(platform.output().stdout, /"msg":"node stopped"/);
  const lines = platform.output().stdout.trim().split('\n');
  t.true(
    lines.every((line) => JSON.parse(line).level !== undefined),
    'every log line is pino JSON',
  );
});

async function refusesToStart(t: ExecutionContext, env: Record<string, string>, reason: RegExp): Promise<void> {
  t.timeout(30_000);
  const platform = startPlatform(env);
  t.teardown(() => void platform.child.kill('SIGKILL'));
  platform.url.catch(() => undefined);
  const [code] = (await once(platform.child, 'exit')) as [number | null];
  t.is(code, 1);
  t.regex(platform.output().stderr, reason);
}

test('a wrong configuration value stops the start with a message naming the variable', (t) => refusesToStart(t, { PORT: 'eighty' }, /PORT/));

test('the node refuses to join a cluster with the embedded store', (t) =>
  refusesToStart(t, { NATS_URL: 'nats://127.0.0.1:4222' }, /NATS_URL: is set but MONGODB_URI is not/));

const ENCLAVE_READY = /"msg":"enclave listening"/;

async function stopped(platform: ReturnType<typeof startPlatform>): Promise<number | null> {
  platform.child.kill('SIGTERM');
  const [code] = (await once(platform.child, 'exit')) as [number | null];
  return code;
}

function listening(stdout: string): { grpc: string; http: string; signer: string } {
  return JSON.parse(stdout.split('\n').find((line) => ENCLAVE_READY.test(line))!);
}

test('npm run enclave serves on its own, and keeps its signer across restarts with the wrapped key', async (t) => {
  t.timeout(60_000);
  const base = { ENCLAVE_GRPC_ADDR: '127.0.0.1:0', ENCLAVE_HTTP_PORT: '0', ENCLAVE_KEY_WRAPPING_KEY: randomBytes(32).toString('base64') };
  const first = startPlatform(base, 'deploy/enclave-main.ts', ENCLAVE_READY);
  await first.url;
  const { http: url, signer } = listening(first.output().stdout);
  const supported = (await (await fetch(`${url}/dispute/supported`)).json()) as Record<string, any>;
  t.is(supported.responseObject.verifiers.length, 2);
  const wrappedKey = JSON.parse(
    first
      .output()
      .stdout.split('\n')
      .find((line) => line.includes('wrappedKey'))!,
  ).wrappedKey as string;
  t.is(await stopped(first), 0);
  t.false(first.output().stdout.includes(base.ENCLAVE_KEY_WRAPPING_KEY));

  const second = startPlatform({ ...base, ENCLAVE_WRAPPED_KEY: wrappedKey }, 'deploy/enclave-main.ts', ENCLAVE_READY);
  await second.url;
  t.is(listening(second.output().stdout).signer, signer);
  t.is(await stopped(second), 0);

  // Another key-wrapping key cannot open it: the service refuses to start rather than sign with another key.
  const other = startPlatform(
    { ...base, ENCLAVE_WRAPPED_KEY: wrappedKey, ENCLAVE_KEY_WRAPPING_KEY: randomBytes(32).toString('base64') },
    'deploy/enclave-main.ts',
    ENCLAVE_READY,
  );
  other.url.catch(() => undefined);
  const [code] = (await once(other.child, 'exit')) as [number | null];
  t.is(code, 1);
  t.regex(other.output().stdout, /enclave failed to start/);
});
