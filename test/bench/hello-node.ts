/** Run by gateway.ts in a process of its own: the Koa hello world the gateway rows are measured against. */
import Koa from 'koa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const app = new Koa();
app.use((ctx) => {
  ctx.body = { success: true, message: 'hello', responseObject: null, statusCode: 200 };
});
const server = createServer(app.callback());
server.listen(0, '127.0.0.1', () => process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
