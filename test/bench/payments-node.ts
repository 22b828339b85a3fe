/**
 * Run by the payment benchmarks (payments.ts, quotes.ts, payments-read.ts) in a process of
 * its own: one node as `npm start` boots it, the embedded default (configuration from the
 * environment with its defaults, the store in a DATA_DIR the parent made, a fresh local
 * anvil with the seeded makers, the indexer and the attestation service with its platform
 * simulator in-process), pino to stdout, which the parent points at a file.
 *
 * It sends the parent what a customer's page and a maker need (the gateway's URL, the
 * simulator's, the enclave it may seal to, the local chain's RPC and contracts) over IPC,
 * and answers two requests a maker's registration and a test would make in-process:
 * `registerPayees` (what document 3's maker endpoints will do; the seeded makers are
 * registered the same way at start) and `bookAt` (waits, for at most `timeoutMs`, until
 * the indexer has read up to `block` and the liquidity book has taken every fact logged
 * by then; answers how many deposits the book holds). SIGTERM drains it.
 */
import { createLogger } from '../../actors/index.js';
import { startNode } from '../../deploy/node.js';
import { configOrExit, stopOnSignal } from '../../deploy/process.js';

export interface PaymentsNodeReady {
  url: string;
  simulatorUrl: string;
  trusted: { measurement: string; signer: `0x${string}` };
  chainId: number;
  rpcUrl: string;
  usdc: `0x${string}`;
  escrow: `0x${string}`;
  seededDeposits: number;
}

export type PaymentsNodeRequest =
  | { id: number; op: 'registerPayees'; payees: Array<{ platform: string; payeeId: string }> }
  | { id: number; op: 'bookAt'; block: number; timeoutMs: number };

export interface PaymentsNodeReply {
  id: number;
  value?: unknown;
  error?: string;
}

const config = configOrExit();
const logger = createLogger({ level: config.LOG_LEVEL });
const node = await startNode({ config, logger });
stopOnSignal(logger, config.DRAIN_TIMEOUT_MS, () => node.stop());

const local = node.chain?.localChain;
const enclave = node.enclave;
if (!local || !node.chain?.indexer || !enclave?.simulator || !node.payees || !node.liquidity) {
  process.stderr.write(
    'the payment benchmarks need the embedded default: a local chain and its indexer, the in-process enclave with its simulator, the liquidity book\n',
  );
  process.exit(1);
}
const { payees, liquidity } = node;
const follower = node.chain.indexer.follower;

async function bookAt(block: number, timeoutMs: number): Promise<{ deposits: number; sequence: number }> {
  const deadline = Date.now() + timeoutMs;
  const late = () =>
    new Error(
      `the book did not reach block ${block} in ${timeoutMs} ms: indexer at block ${follower.cursor.number}, sequence ${follower.lastSequence}; book at ${liquidity.afterSequence}`,
    );
  while (follower.cursor.number < block) {
    if (Date.now() > deadline) throw late();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const sequence = follower.lastSequence;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    liquidity.delivered(sequence),
    new Promise((_, reject) => (timer = setTimeout(() => reject(late()), Math.max(0, deadline - Date.now())))),
  ]).finally(() => clearTimeout(timer));
  return { deposits: await liquidity.count(), sequence };
}

process.on('message', (request: PaymentsNodeRequest) => {
  const answer = async (): Promise<unknown> => {
    if (request.op === 'bookAt') return bookAt(request.block, request.timeoutMs);
    const at = new Date().toISOString();
    for (const { platform, payeeId } of request.payees) await payees.register(platform, payeeId, at);
    return request.payees.length;
  };
  answer().then(
    (value) => process.send!({ id: request.id, value } satisfies PaymentsNodeReply),
    (error: unknown) => process.send!({ id: request.id, error: String(error) } satisfies PaymentsNodeReply),
  );
});

process.send!({
  url: node.url,
  simulatorUrl: enclave.simulator.url,
  trusted: { measurement: enclave.service.attestationDocument().measurement, signer: enclave.service.signer },
  chainId: local.chainId,
  rpcUrl: local.rpcUrl,
  usdc: local.usdc,
  escrow: local.escrow,
  seededDeposits: node.seededMakers.length,
} satisfies PaymentsNodeReady);
