import { randomUUID } from 'node:crypto';
import test from 'ava';
import { encodeFunctionData } from 'viem';
import type { DepositChain } from '../../../actors/deposits/index.js';
import type { ActorSystem } from '../../../actors/runtime/actor-system.js';
import { AtomicCreate } from '../../../gateway/deposits/atomic-create.js';
import { ApiError } from '../../../gateway/envelope.js';
import { escrowFunctionsAbi, type DepositRequest } from '../../../machines/index.js';

const WALLET = '0xbcd4042de499d14e55001ccbb24a551f3b954096';
const targets = {
  chainId: 31337,
  usdc: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  escrow: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  depositAssertions: '0x0165878A594ca255338adfa4d48449f69242Eb8F',
  batchExecutor: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
} as const;
const chain = { targets, depositCount: async () => 0n } as unknown as DepositChain;
const wallets = { wallet: async () => ({}) as never };
const ZERO = '0x0000000000000000000000000000000000000000';
const body = () => ({
  requestId: randomUUID(),
  calls: {
    createDeposit: encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'createDeposit', args: [targets.usdc, 5n, { min: 1n, max: 5n }, ZERO, ZERO] }),
  },
});

/** A system whose deposit actor takes the request, then reads as `after` describes. */
function systemWhere(after: (request: DepositRequest) => Record<string, unknown>): ActorSystem {
  let view: Record<string, unknown> | null = null;
  return {
    views: () => ({ findOne: async () => (view ? { view } : null), find: async () => [] }),
    ask: async (_kind: unknown, _id: string, event: { type: string } & DepositRequest) => {
      const { type: _type, ...request } = event;
      view = {
        walletAddress: WALLET,
        fingerprint: request.fingerprint,
        chainId: request.chainId,
        depositId: '1',
        escrowAddress: request.escrow,
        transactionHash: null,
        transactionId: null,
        ...after(request),
      };
    },
  } as unknown as ActorSystem;
}

async function refusal(create: Promise<unknown>): Promise<ApiError> {
  const error = await create.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

test('a batch that could not be mined is a 502 SUBMISSION_FAILED', async (t) => {
  const system = systemWhere(() => ({ status: 'failed', failure: { code: 'SUBMISSION_FAILED', message: 'the batch reverted on chain: x' } }));
  const error = await refusal(new AtomicCreate(system, { chain, wallets, waitMs: 1_000 }, Date.now).create(WALLET, body()));
  t.is(error.statusCode, 502);
  t.is(error.errorCode, 'SUBMISSION_FAILED');
});

test('a batch not sent within the wait is a 503 TEMPORARILY_UNAVAILABLE; the request goes on and reads pending', async (t) => {
  const system = systemWhere(() => ({ status: 'pending', failure: null }));
  const atomicCreate = new AtomicCreate(system, { chain, wallets, waitMs: 50 }, Date.now);
  const request = body();
  const error = await refusal(atomicCreate.create(WALLET, request));
  t.is(error.statusCode, 503);
  t.is(error.errorCode, 'TEMPORARILY_UNAVAILABLE');
  t.like(await atomicCreate.status(WALLET, request.requestId), { status: 'pending', transactionHash: null });
});
