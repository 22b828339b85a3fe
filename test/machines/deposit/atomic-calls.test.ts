import test from 'ava';
import { decodeFunctionData, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import {
  atomicBatch,
  checkAtomicCalls,
  depositAssertionsFunctionsAbi,
  escrowFunctionsAbi,
  reservedIdOf,
  executeData,
  withDepositId,
  type CheckedCalls,
} from '../../../machines/index.js';

const targets = {
  chainId: 31337,
  usdc: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  escrow: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  depositAssertions: '0x0165878A594ca255338adfa4d48449f69242Eb8F',
} as const;
const wallet = '0xBcd4042DE499D14e55001CcbB24a551F3b954096';
const ZERO = '0x0000000000000000000000000000000000000000';

const approve = (amount: bigint, spender: Hex = targets.escrow) => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
const create = (amount: bigint) =>
  encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'createDeposit', args: [targets.usdc, amount, { min: 1n, max: amount }, ZERO, ZERO] });
const privacy = (depositId: bigint) => encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'setPrivate', args: [depositId, true] });

test('calls come out in batch order, and only calls after createDeposit take the reserved id', (t) => {
  const checked = checkAtomicCalls(
    {
      setDisputeProtectionEnabled: encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'setDisputeProtectionEnabled', args: [0n, true] }),
      configureDeposits: [privacy(0n)],
      createDeposit: create(5n),
      approve: approve(5n),
    },
    targets,
  ) as CheckedCalls;
  t.deepEqual(
    checked.calls.map((call) => [call.field, call.functionName, call.takesDepositId]),
    [
      ['calls.approve', 'approve', false],
      ['calls.createDeposit', 'createDeposit', false],
      ['calls.configureDeposits[0]', 'setPrivate', true],
      ['calls.setDisputeProtectionEnabled', 'setDisputeProtectionEnabled', true],
    ],
  );
  t.is(checked.amount, 5n);
});

test('the batch asserts the reserved id first and the wallet’s deposit last, with the id put in every setup call', (t) => {
  const checked = checkAtomicCalls({ createDeposit: create(5n), configureDeposit: privacy(0n) }, targets) as CheckedCalls;
  const batch = atomicBatch(checked.calls, 42n, wallet, targets);
  t.is(batch.length, 4);
  const first = decodeFunctionData({ abi: depositAssertionsFunctionsAbi, data: batch[0]!.data });
  t.deepEqual([first.functionName, first.args[1]], ['assertNextDepositId', 42n]);
  t.deepEqual(decodeFunctionData({ abi: escrowFunctionsAbi, data: batch[2]!.data }).args, [42n, true]);
  const last = decodeFunctionData({ abi: depositAssertionsFunctionsAbi, data: batch[3]!.data });
  t.deepEqual([last.functionName, last.args[1], last.args[2]], ['assertDepositor', 42n, wallet]);
  t.is(batch[1]!.data, checked.calls[0]!.data, 'createDeposit is left as it was');
  t.is(reservedIdOf(executeData(batch, 1n, 2n, '0x1234')), 42n, 'the id reads back from the execute call');
});

test('withDepositId replaces only the first argument', (t) => {
  t.is(withDepositId(privacy(0n), 7n), privacy(7n));
});

test('trailing bytes after a call’s arguments are dropped: what reaches the chain is what was checked', (t) => {
  const checked = checkAtomicCalls({ createDeposit: `${create(5n)}deadbeef` }, targets) as CheckedCalls;
  t.is(checked.calls[0]!.data, create(5n));
});

test('each refusal names its field and whether the call is unknown or unsafe', (t) => {
  const refusals = [
    [{ createDeposit: create(5n), approve: approve(5n, wallet) }, 'UNSAFE_CALLDATA', 'calls.approve'],
    [
      { createDeposit: create(5n), approve: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [wallet, 5n] }) },
      'UNSAFE_CALLDATA',
      'calls.approve',
    ],
    [{ createDeposit: create(0n) }, 'INVALID_CALLDATA', 'calls.createDeposit'],
    [
      { createDeposit: create(5n), configureDeposit: encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'withdrawDeposit', args: [0n] }) },
      'UNSAFE_CALLDATA',
      'calls.configureDeposit',
    ],
    [
      { createDeposit: create(5n), configureDeposit: encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'setRateManager', args: [0n, wallet] }) },
      'UNSAFE_CALLDATA',
      'calls.configureDeposit',
    ],
    [
      { createDeposit: create(5n), setRateManager: encodeFunctionData({ abi: escrowFunctionsAbi, functionName: 'setRateManager', args: [3n, wallet] }) },
      'INVALID_CALLDATA',
      'calls.setRateManager',
    ],
    [{ createDeposit: '0x12345678' }, 'INVALID_CALLDATA', 'calls.createDeposit'],
  ] as const;
  for (const [calls, code, field] of refusals) t.like(checkAtomicCalls(calls as never, targets), { code, field });
});
