/**
 * One platform node for payment-kill.chaos.ts, run as a child process of the test
 * (`fork(..., { execArgv: ['--import', 'tsx'] })`) exactly as `npm start` runs it
 * (deploy/main.ts): the configuration from the environment, startNode, a drain on
 * SIGTERM. The test points it at a chain, an indexer and an attestation service that
 * live in the test process, so they outlive it when it is SIGKILLed.
 *
 * Beside the node, a tap on its event bus, as a webhook dispatcher would consume it:
 * each domain event is handed to the parent over IPC before the consumer takes the
 * next, so an event the node published reached the parent unless the process died
 * first. Its log goes to PAYMENT_NODE_LOG (synchronously: a SIGKILL loses nothing
 * written). It tells the parent `{ type: 'ready', url }` once it serves.
 */
import { pino } from 'pino';
import { createLogger } from '../../actors/index.js';
import { startNode } from '../../deploy/node.js';
import { configOrExit, stopOnSignal } from '../../deploy/process.js';

export interface TappedEvent {
  id: string;
  type: string;
  actor: { kind: string; id: string };
  at: number;
}

/** What a customer's page is told of the node's own attestation service and chain, when it runs them. */
export interface NodePage {
  simulatorUrl: string;
  measurement: string;
  signer: `0x${string}`;
  chainId: number;
}

export type PaymentNodeMessage = { type: 'ready'; url: string; pid: number; page: NodePage | null } | { type: 'event'; event: TappedEvent };

// The parent went away (it failed, or its teardown ran): the node must not outlive the test.
process.on('disconnect', () => process.exit(1));

function send(message: PaymentNodeMessage): Promise<void> {
  return new Promise((resolve, reject) => process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())));
}

const config = configOrExit();
const logFile = process.env.PAYMENT_NODE_LOG;
const logger = createLogger({ level: config.LOG_LEVEL, ...(logFile ? { destination: pino.destination({ dest: logFile, sync: true, mkdir: true }) } : {}) });
const node = await startNode({ config, logger }).catch((error: unknown) => {
  logger.fatal({ err: error }, 'node failed to start');
  process.exit(1);
});
await node.bus.consume({ durable: 'payment-kill-tap' }, async (event) => {
  await send({ type: 'event', event: { id: event.id, type: event.type, actor: { kind: event.actor.kind, id: event.actor.id }, at: event.at } });
});
stopOnSignal(logger, config.DRAIN_TIMEOUT_MS, () => node.stop());
const { enclave, payments } = node;
const page =
  enclave?.simulator && payments.chain
    ? {
        simulatorUrl: enclave.simulator.url,
        measurement: enclave.service.attestationDocument().measurement,
        signer: enclave.service.signer,
        chainId: payments.chain.chainId,
      }
    : null;
await send({ type: 'ready', url: node.url, pid: process.pid, page });
