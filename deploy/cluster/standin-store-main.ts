/**
 * The local stand-in for MongoDB, on its own: an in-memory store served over a loopback
 * socket on STANDIN_STORE_PORT (0: a free one) for the local cluster's processes
 * (actors/store/socket/). Its data lives as long as this process. It prints one JSON line,
 * `{"msg":"stand-in store listening","url":"tcp://127.0.0.1:<port>"}`, once it serves.
 */
import { EmbeddedStore } from '../../actors/index.js';
import { SocketStoreServer } from '../../actors/store/socket/index.js';

const port = Number(process.env.STANDIN_STORE_PORT ?? '0');
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write('STANDIN_STORE_PORT must be a port number\n');
  process.exit(1);
}
if (process.env.NODE_ENV === 'production') {
  process.stderr.write('the stand-in for MongoDB is refused in production: it keeps its data in this process’s memory, unreplicated\n');
  process.exit(1);
}
const server = await SocketStoreServer.start({ store: new EmbeddedStore(), port });
process.stdout.write(
  `${JSON.stringify({ msg: 'stand-in store listening', url: `tcp://127.0.0.1:${server.port}`, note: 'a local stand-in for MongoDB: in memory, unreplicated, never for production' })}\n`,
);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void server.close().then(() => process.exit(0)));
