import test from 'ava';
import { parseEventLogs, type Hex } from 'viem';
import { anvilTestAccount, escrowAbi, startLocalChain } from '../../indexer/chain/index.js';
import { bloomMayContain } from '../../indexer/logs-bloom.js';
import { depositOn } from '../support/local-deposit.js';

test('a block’s bloom may contain the addresses and topics of its logs, and rules out others', async (t) => {
  const chain = await startLocalChain();
  t.teardown(() => chain.stop());
  const maker = anvilTestAccount(2);
  await chain.mintUsdc(maker.address, 10_000_000n);
  const { receipt } = await depositOn(chain, maker, 10_000_000n);
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  const [received] = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'DepositReceived' });

  t.true(bloomMayContain(block.logsBloom!, chain.escrow));
  t.true(bloomMayContain(block.logsBloom!, chain.usdc), 'the escrow pulled the tokens: a Transfer of USDC');
  t.true(bloomMayContain(block.logsBloom!, received!.topics[0]! as Hex));
  // Addresses with no log in the block: an orchestrator that did nothing, and ones never deployed.
  const absent = [chain.orchestrator, chain.verifier, ...Array.from({ length: 20 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}` as Hex)];
  t.true(absent.filter((address) => bloomMayContain(block.logsBloom!, address)).length <= 1, 'a false positive is rare, not the rule');
  t.false(bloomMayContain(`0x${'00'.repeat(256)}`, chain.escrow), 'an empty bloom holds nothing');
  t.throws(() => bloomMayContain('0x00', chain.escrow), { message: /256 bytes/ });
});
