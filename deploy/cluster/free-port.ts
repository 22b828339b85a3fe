/**
 * Ports the local cluster chooses before starting the process that listens on them (the
 * balancer's configuration names the nodes' ports; a restarted node takes its port back).
 * They are taken below Linux's ephemeral range (32768 and up), which is where every
 * `listen(0)` of these processes (a node's mail catcher, its simulators, anvil) lands:
 * a port chosen there could be handed to one of those before its owner starts.
 */
import { connect, createServer } from 'node:net';

const FIRST = 20_000;
const LAST = 32_000;
const chosen = new Set<number>();

/** A loopback port below the ephemeral range that nothing listens on now and this process has not handed out. */
export async function freePort(): Promise<number> {
  const start = FIRST + Math.floor(Math.random() * (LAST - FIRST));
  for (let offset = 0; offset < LAST - FIRST; offset++) {
    const port = FIRST + ((start - FIRST + offset) % (LAST - FIRST));
    if (chosen.has(port)) continue;
    if (await bindable(port)) {
      chosen.add(port);
      return port;
    }
  }
  throw new Error(`no free loopback port between ${FIRST} and ${LAST}`);
}

async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Whether something accepts connections on the loopback port. */
export async function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
