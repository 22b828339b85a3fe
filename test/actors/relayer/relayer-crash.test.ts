/**
 * The relayer killed in the middle of a send (SIGKILL, a child process): after a
 * restart over the same data folder, one transaction is mined, not two, and it is
 * the one signed before the crash.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import type { TransactionView } from '../../../actors/kinds/index.js';
import { mockUSDCAbi } from '../../../indexer/chain/index.js';
import { startLocalChain } from '../../../indexer/chain/local-chain.js';
import { bob } from '../../support/chain.js';
import type { OwnerView } from '../../support/outcome-owner-kind.js';
import { relayerAccount } from '../../support/relayer.js';

const CHILD = fileURLToPath(new URL('./relayer-child.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'peer-relayer-crash-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

interface ChildRun {
  lines: Array<Record<string, unknown>>;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function runChild(env: Record<string, string>): Promise<ChildRun> {
  const child = spawn(process.execPath, ['--import=tsx', CHILD], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) =>
    child.once('exit', (code, signal) =>
      resolve({
        lines: stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
        code,
        signal,
        stderr,
      }),
    ),
  );
}

for (const fault of ['before-broadcast', 'after-broadcast'] as const) {
  test(`killed ${fault.replace('-', ' ')}, a restarted relayer sends the bytes it signed: one transaction mined, one outcome`, async (t) => {
    const local = await startLocalChain();
    t.teardown(() => local.stop());
    await local.mintUsdc(relayerAccount.address, 1_000_000n);
    const nonce = () => local.publicClient.getTransactionCount({ address: relayerAccount.address });
    const before = await nonce();
    const env: Record<string, string> = {
      RPC_URL: local.rpcUrl,
      CHAIN_ID: String(local.chainId),
      USDC: local.usdc,
      TO: bob.address,
      DATA_DIR: join(root, fault),
    };

    const killed = await runChild({ ...env, SEND: '1', FAULT: fault });
    t.is(killed.signal, 'SIGKILL', killed.stderr);
    const sending = killed.lines.find((line) => 'broadcasting' in line)?.broadcasting as `0x${string}`;
    t.regex(sending, /^0x[0-9a-f]{64}$/);
    t.is(await nonce(), fault === 'before-broadcast' ? before : before + 1, 'the bytes left the process only after the fault');

    const restarted = await runChild(env);
    t.is(restarted.code, 0, restarted.stderr);
    const { view, outcomes } = restarted.lines.at(-1) as { view: TransactionView; outcomes: OwnerView['outcomes'] };
    t.is(view.status, 'MINED');
    t.is(view.attempts.length, 1, 'nothing was signed a second time');
    t.is(view.outcome!.hash, sending, 'what was mined is what was signed before the crash');
    t.deepEqual(outcomes, [{ transactionId: 'tx_crash', status: 'MINED', hash: sending, reason: null }]);
    t.is(await nonce(), before + 1, 'one transaction took one nonce');
    t.is(
      await local.publicClient.readContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [bob.address] }),
      1_000_000n,
      'the transfer ran once',
    );
  });
}
