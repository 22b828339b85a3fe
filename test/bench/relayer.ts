/**
 * The relayer on a local anvil (automine): sends per second from one wallet, from
 * PREPARE to a MINED outcome, beside a bare viem `sendTransaction` loop from another
 * dev account in the same run (which also waits for nothing but the node's answer,
 * and with automine that answer comes once the transaction is mined). Both send a
 * USDC transfer of one base unit.
 */
import { createWalletClient, http } from 'viem';
import { anvilTestAccount } from '../../indexer/chain/dev-accounts.js';
import { bob } from '../support/chain.js';
import { relayerAccount, startTestRelayer, usdcTransfer } from '../support/relayer.js';
import { closedLoop, type Comparison } from './harness.js';

const LEVELS = [1, 16, 64];

export async function relayerBenchmark(total: number): Promise<Comparison> {
  // Real time: a send the node has not mined by the first look waits for the next, every 100 ms.
  const run = await startTestRelayer({ realTime: true, policy: { checkEveryMs: 100 } });
  try {
    const baselineAccount = anvilTestAccount(5);
    await run.local.mintUsdc(relayerAccount.address, BigInt(total * LEVELS.length));
    await run.local.mintUsdc(baselineAccount.address, BigInt(total * LEVELS.length));
    const data = usdcTransfer(bob.address, 1n);
    const wallet = createWalletClient({ account: baselineAccount, chain: run.local.chain, transport: http(run.local.rpcUrl) });
    const owner = await run.owner('bench');
    const rows: Comparison['rows'] = [];
    let sent = 0;
    for (const inFlight of LEVELS) {
      // One wallet, one nonce at a time: viem's loop cannot overlap sends without a nonce manager, so its baseline runs one in flight.
      const base = await closedLoop(() => wallet.sendTransaction({ to: run.local.usdc, data }), 1, total);
      const subject = await closedLoop(
        async () => {
          const id = `tx_bench_${sent++}`;
          await run.relayer.send(id, { to: run.local.usdc, data, value: 0n, purpose: 'transfer', owner });
          await untilEnded(run, id);
        },
        inFlight,
        total,
      );
      rows.push({ subject, base });
    }
    return {
      name: `Relayer sends on a local anvil (automine), ${total} per level, one wallet`,
      baseline: 'a bare viem sendTransaction loop, one in flight',
      rows,
    };
  } finally {
    await run.stop();
  }
}

/** Waits for the transaction's outcome: its effects run one after another from the outbox, so the send's own chain of turns ends there. */
async function untilEnded(run: Awaited<ReturnType<typeof startTestRelayer>>, id: string): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    const stop = run.system.onWrite('transaction', (written) => {
      if (written !== id) return;
      void run.view(id).then((view) => {
        if (view.outcome) {
          stop();
          resolve();
        }
      });
    });
  });
  const view = await run.view(id);
  if (view.outcome) return;
  await ended;
}
