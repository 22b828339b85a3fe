/**
 * Run by gateway.ts in a process of its own: the Koa hello world the gateway rows are
 * measured against. With HELLO_WORK_US it first spends that many microseconds of CPU
 * on every request: a calibration row, showing what a server only that much slower
 * than the baseline scores on this machine (the ratio is not linear in the work).
 * Tells the bench its process's CPU time when asked (process-cpu.ts).
 */
import Koa from 'koa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerCpuQueries } from './process-cpu.js';

const workMs = Number(process.env.HELLO_WORK_US ?? 0) / 1000;

function work(): void {
  const until = performance.now() + workMs;
  while (performance.now() < until);
}

const app = new Koa();
app.use((ctx) => {
  if (workMs > 0) work();
  ctx.body = { success: true, message: 'hello', responseObject: null, statusCode: 200 };
});
const server = createServer(app.callback());
answerCpuQueries();
server.listen(0, '127.0.0.1', () => process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
