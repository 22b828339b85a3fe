import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

function startPlatform(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import=tsx', 'deploy/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "node started" line within 30 s:\n${stdout}\n${stderr}`)), 30_000);
    child.stdout.on('data', () => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(stdout);
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

  const sent = Date.now();
  platform.child.kill('SIGTERM');
  const [code] = (await once(platform.child, 'exit')) as [number | null];
  t.is(code, 0, platform.output().stderr);
  t.true(Date.now() - sent < 10_000);
  t.regex(platform.output().stdout, /"msg":"node stopped"/);
  const lines = platform.output().stdout.trim().split('\n');
  t.true(lines.every((line) => JSON.parse(line).level !== undefined), 'every log line is pino JSON');
});

async function refusesToStart(t: ExecutionContext, env: Record<string, string>, reason: RegExp): Promise<void> {
  t.timeout(30_000);
  const platform = startPlatform(env);
  platform.url.catch(() => undefined);
  const [code] = (await once(platform.child, 'exit')) as [number | null];
  t.is(code, 1);
  t.regex(platform.output().stderr, reason);
}

test('a wrong configuration value stops the start with a message naming the variable', (t) => refusesToStart(t, { PORT: 'eighty' }, /PORT/));

test('the node refuses to join a cluster with the embedded store', (t) =>
  refusesToStart(t, { NATS_URL: 'nats://127.0.0.1:4222' }, /NATS_URL: is set but MONGODB_URI is not/));
