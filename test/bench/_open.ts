import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
const ADMIN = 'bench-admin-token-0123456789abcdef';
const child = fork(fileURLToPath(new URL('./gateway-node.ts', import.meta.url)), [], {
  env: { ...process.env, PORT: '0', PEER_ADMIN_TOKEN: ADMIN, RATE_LIMIT_PER_MINUTE: '1000000', INDEXER_ENABLED: 'false', ENCLAVE_ENABLED: 'false' },
  execArgv: ['--import=tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const url: string = await new Promise((r) => child.once('message', (m: any) => r(m.url)));
const j = { 'content-type': 'application/json' };
const m = await (await fetch(`${url}/internal/v1/merchants`, { method: 'POST', headers: { ...j, authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ name: 'Acme', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' }) })).json() as any;
const headers = { ...j, 'x-api-key': m.responseObject.liveApiKey };
const body = JSON.stringify({ requestedUsdcAmount: '25', notes: { sku: 'bench' } });
const dispatcher = new Agent({ connections: 256, pipelining: 1 });
async function run(rate: number, seconds: number) {
  const lat: number[] = [];
  const n = rate * seconds;
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    pending.push(request(`${url}/api/v1/orders`, { method: 'POST', headers, body, dispatcher }).then(async (res) => { await res.body.text(); if (res.statusCode !== 201 && res.statusCode !== 200) throw new Error(String(res.statusCode)); lat.push(performance.now() - sent); }));
  }
  await Promise.all(pending);
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]!.toFixed(1);
  console.log(JSON.stringify({ rate, done: lat.length, wallS: ((performance.now() - start) / 1000).toFixed(1), p50: q(0.5), p90: q(0.9), p99: q(0.99), max: q(0.99999) }));
}
await run(200, 3);
for (const rate of (process.env.RATES ?? '200,400,600').split(',').map(Number)) await run(rate, Number(process.env.SECS ?? 10));
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
