import { randomUUID } from 'node:crypto';
import test from 'ava';
import { encodeFunctionData, parseUnits } from 'viem';
import { anvilTestAccount, escrowAbi, mockUSDCAbi, type LocalChain } from '../../../indexer/chain/index.js';
import { idHash } from '../../../machines/index.js';
import {
  approveCall,
  atomicCreate,
  atomicCreateStatus,
  createDepositCall,
  depositRequest,
  disputeProtectionCall,
  paymentMethodCall,
  signInEmbedded,
} from '../../support/atomic-create.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { signIn } from '../../support/maker-sign-in.js';
import { untilOnClock } from '../../support/real-time-poll.js';

let gateway: TestGateway;
let local: LocalChain;

test.before(async () => {
  gateway = await startTestGateway({ INDEXER_ENABLED: true, INDEXER_POLL_MS: 20 });
  local = gateway.node.chain!.localChain!;
});
test.after.always(() => gateway?.stop());

const depositCount = () => local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'depositCount' });
const depositActors = () => gateway.node.system.documents('deposit').count({});

test.serial('a deposit created and configured in one sponsored batch: 201 with the reserved id, then confirmed on chain', async (t) => {
  t.timeout(120_000);
  const maker = await signInEmbedded(gateway, 0);
  const amount = parseUnits('250', 6);
  const request = depositRequest(local, amount);
  const next = (await depositCount()) + 1n;

  const created = await atomicCreate(gateway, maker.headers, request);
  t.is(created.status, 201, JSON.stringify(created.body));
  t.like(created.body.responseObject, { chainId: local.chainId, depositId: next.toString(), escrowAddress: local.escrow });
  t.regex(created.body.responseObject.transactionHash, /^0x[0-9a-f]{64}$/);

  const confirmed = await untilOnClock(
    gateway.clock,
    () => atomicCreateStatus(gateway, maker.headers, request.requestId),
    (answer) => answer.body.responseObject?.status === 'confirmed',
    'the request confirmed',
  );
  t.like(confirmed.body.responseObject, {
    status: 'confirmed',
    chainId: local.chainId,
    depositId: next.toString(),
    escrowAddress: local.escrow,
    transactionHash: created.body.responseObject.transactionHash,
    failure: null,
  });

  const deposit = await local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [next] });
  t.is(deposit.depositor, maker.account.address, 'the embedded wallet holds the deposit, not the sponsor');
  t.is(deposit.available, amount);
  t.true(deposit.disputeProtectionEnabled, 'the setup calls ran on the reserved id');
  t.is(
    await local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'payeeDetails', args: [next, idHash('venmo')] }),
    idHash('@maker-atomic'),
  );
  t.is(
    await local.publicClient.readContract({
      address: local.escrow,
      abi: escrowAbi,
      functionName: 'minConversionRate',
      args: [next, idHash('venmo'), idHash('USD')],
    }),
    1_010_000_000_000_000_000n,
  );
  t.is(await local.publicClient.getBalance({ address: maker.account.address }), 0n, 'the wallet paid no gas: it holds no ether at all');

  const again = await atomicCreate(gateway, maker.headers, {
    ...request,
    calls: { ...request.calls, createDeposit: request.calls.createDeposit.toUpperCase().replace('0X', '0x') },
  });
  t.is(again.status, 201, 'the same request again, in other letter case, answers as the first');
  t.deepEqual(again.body.responseObject, created.body.responseObject);
  t.is(await depositCount(), next, 'and creates nothing more');

  const other = await atomicCreate(gateway, maker.headers, {
    ...request,
    calls: { ...request.calls, setDisputeProtectionEnabled: disputeProtectionCall(false) },
  });
  t.is(other.status, 409);
  t.is(other.body.errorCode, 'REQUEST_ID_CONFLICT');

  const stranger = await signIn(gateway);
  const hidden = await atomicCreateStatus(gateway, stranger.headers, request.requestId);
  t.is(hidden.status, 404, 'another wallet does not see the request');
  t.is(hidden.body.errorCode, 'REQUEST_NOT_FOUND');
  const stolen = await atomicCreate(gateway, (await signInEmbedded(gateway, 1)).headers, request);
  t.is(stolen.status, 409, 'nor can it take the requestId');
});

test.serial('unsafe or invalid calldata is refused with its field named, and changes nothing', async (t) => {
  const maker = await signInEmbedded(gateway, 1);
  const amount = parseUnits('10', 6);
  const base = depositRequest(local, amount);
  const before = { count: await depositCount(), actors: await depositActors() };
  const withdraw = encodeFunctionData({ abi: escrowAbi, functionName: 'withdrawDeposit', args: [0n] });
  const cases: Array<[string, Record<string, unknown>, number, string | undefined, RegExp]> = [
    ['approve for another spender', { approve: approveCall(local, amount, stranger()) }, 400, 'UNSAFE_CALLDATA', /calls\.approve.*spender/],
    ['approval below the amount', { approve: approveCall(local, amount - 1n) }, 400, 'UNSAFE_CALLDATA', /calls\.approve/],
    ['a deposit of another token', { createDeposit: createDepositCall(local, amount, stranger()) }, 400, 'UNSAFE_CALLDATA', /calls\.createDeposit.*token/],
    ['a transfer in the createDeposit slot', { createDeposit: approveCall(local, amount) }, 400, 'INVALID_CALLDATA', /calls\.createDeposit/],
    ['withdrawing in a configuration slot', { configureDeposit: withdraw }, 400, 'UNSAFE_CALLDATA', /calls\.configureDeposit calls withdrawDeposit/],
    [
      'configuring another deposit',
      { configureDeposits: [paymentMethodCall('venmo', '@x', 1n)] },
      400,
      'INVALID_CALLDATA',
      /calls\.configureDeposits\[0\] names deposit 1/,
    ],
    ['an unknown selector', { setRateManager: '0xdeadbeef' }, 400, 'INVALID_CALLDATA', /calls\.setRateManager/],
    ['an extra call', { transfer: '0xdeadbeef' }, 400, undefined, /Invalid request/],
    ['odd-length hex', { createDeposit: '0x1234567' }, 400, undefined, /Invalid request/],
    ['33 configuration calls', { configureDeposits: Array(33).fill(paymentMethodCall('venmo', '@x')) }, 400, undefined, /Invalid request/],
  ];
  for (const [what, calls, status, code, message] of cases) {
    const answer = await atomicCreate(gateway, maker.headers, { requestId: randomUUID(), calls: { ...base.calls, ...calls } });
    t.is(answer.status, status, what);
    t.is(answer.body.errorCode, code, what);
    t.regex(answer.body.message + JSON.stringify(answer.body.responseObject), message, what);
  }
  const notUuid = await atomicCreate(gateway, maker.headers, { ...base, requestId: 'not-a-uuid' });
  t.is(notUuid.status, 400);
  t.truthy(notUuid.body.responseObject.fieldErrors.requestId);
  const extra = await atomicCreate(gateway, maker.headers, { ...base, wallet: maker.account.address });
  t.is(extra.status, 400, 'no extra properties in the body');
  t.deepEqual({ count: await depositCount(), actors: await depositActors() }, before, 'nothing was reserved, created or submitted');
});

test.serial('a wallet the provider holds no embedded wallet for is a 404; no bearer is a 401', async (t) => {
  const outsider = await signIn(gateway);
  const answer = await atomicCreate(gateway, outsider.headers, depositRequest(local, 1_000_000n));
  t.is(answer.status, 404);
  t.is(answer.body.errorCode, 'EMBEDDED_WALLET_NOT_FOUND');
  const anonymous = await atomicCreate(gateway, {}, depositRequest(local, 1_000_000n));
  t.is(anonymous.status, 401);
  t.is((await atomicCreateStatus(gateway, {}, randomUUID())).status, 401);
  t.is((await atomicCreateStatus(gateway, outsider.headers, 'nope')).status, 400);
});

test.serial('a batch that would revert (more USDC than the wallet holds) is a 400 with the revert, and the request reads failed', async (t) => {
  t.timeout(60_000);
  const maker = await signInEmbedded(gateway, 2);
  const before = await depositCount();
  const request = depositRequest(local, parseUnits('20000', 6));
  const answer = await atomicCreate(gateway, maker.headers, request);
  t.is(answer.status, 400);
  t.is(answer.body.errorCode, 'CALLDATA_REVERTS');
  t.regex(answer.body.message, /ERC20InsufficientBalance/);
  const status = await atomicCreateStatus(gateway, maker.headers, request.requestId);
  t.like(status.body.responseObject, { status: 'failed', transactionHash: null, failure: { code: 'CALLDATA_REVERTS' } });
  t.is(await depositCount(), before);
  const replay = await atomicCreate(gateway, maker.headers, request);
  t.is(replay.status, 400, 'the same request again answers the same failure');
  t.is(replay.body.errorCode, 'CALLDATA_REVERTS');
});

test.serial(
  'another deposit created before the batch is mined takes the reserved id: the batch reverts whole and is submitted again under the next',
  async (t) => {
    t.timeout(120_000);
    const maker = await signInEmbedded(gateway, 3);
    const rival = anvilTestAccount(3);
    const amount = parseUnits('100', 6);
    await local.mintUsdc(rival.address, amount);
    const request = depositRequest(local, amount);
    await local.testClient.setAutomine(false);
    let automining = false;
    t.teardown(async () => void (automining || (await local.testClient.setAutomine(true))));

    const created = await atomicCreate(gateway, maker.headers, request);
    t.is(created.status, 201, JSON.stringify(created.body));
    const reserved = BigInt(created.body.responseObject.depositId);
    // The rival's deposit pays a higher tip, so the block takes it before the batch.
    const rivalWallet = local.walletFor(rival);
    const tip = { maxFeePerGas: parseUnits('500', 9), maxPriorityFeePerGas: parseUnits('400', 9) };
    await rivalWallet.writeContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [local.escrow, amount], ...tip });
    await rivalWallet.writeContract({
      address: local.escrow,
      abi: escrowAbi,
      functionName: 'createDeposit',
      args: [local.usdc, amount, { min: 1_000_000n, max: amount }, rival.address, rival.address],
      ...tip,
      gas: 400_000n,
    });
    await local.testClient.mine({ blocks: 1 });
    await local.testClient.setAutomine(true);
    automining = true;

    const confirmed = await untilOnClock(
      gateway.clock,
      () => atomicCreateStatus(gateway, maker.headers, request.requestId),
      (answer) => answer.body.responseObject?.status !== 'pending',
      'the request resubmitted and confirmed',
    );
    t.like(confirmed.body.responseObject, { status: 'confirmed', depositId: (reserved + 1n).toString() });
    const depositorOf = async (id: bigint) =>
      (await local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [id] })).depositor;
    t.is(await depositorOf(reserved), rival.address, 'the rival took the reserved id');
    t.is(await depositorOf(reserved + 1n), maker.account.address, 'the maker’s deposit is the next one, created once');
    const firstBatch = await gateway.node.relayer!.read(`${request.requestId}-batch-0`);
    t.like(firstBatch, { status: 'FAILED' });
    t.regex(firstBatch!.outcome!.reason!, /^DepositIdTaken\(/, 'the first batch reverted on its pre-assertion');
    t.is(
      await local.publicClient.readContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [maker.account.address] }),
      parseUnits('10000', 6) - amount,
      'the wallet paid its amount once',
    );
  },
);

function stranger(): `0x${string}` {
  return '0x1111111111111111111111111111111111111111';
}

test.serial('the call lists hold 1 to 32 calls, each at least 4 bytes; dispute protection calls run last, on the reserved id', async (t) => {
  t.timeout(60_000);
  const maker = await signInEmbedded(gateway, 1);
  const base = depositRequest(local, parseUnits('10', 6));
  for (const [what, calls] of [
    ['no configuration calls', { configureDeposits: [] }],
    ['no dispute protection calls', { setDisputeProtectionEnabledCalls: [] }],
    ['33 dispute protection calls', { setDisputeProtectionEnabledCalls: Array(33).fill(disputeProtectionCall(true)) }],
    ['3 bytes', { createDeposit: '0x123456' }],
  ] as const) {
    const answer = await atomicCreate(gateway, maker.headers, { requestId: randomUUID(), calls: { ...base.calls, ...calls } });
    t.is(answer.status, 400, what);
    t.truthy(answer.body.responseObject.fieldErrors.calls, what);
  }
  const request = {
    ...base,
    calls: {
      ...base.calls,
      setDisputeProtectionEnabled: disputeProtectionCall(false),
      setDisputeProtectionEnabledCalls: Array(32).fill(disputeProtectionCall(true)),
    },
  };
  const created = await atomicCreate(gateway, maker.headers, request);
  t.is(created.status, 201, '32 calls are allowed');
  await untilOnClock(
    gateway.clock,
    () => atomicCreateStatus(gateway, maker.headers, request.requestId),
    (answer) => answer.body.responseObject?.status === 'confirmed',
    'confirmed',
  );
  const deposit = await local.publicClient.readContract({
    address: local.escrow,
    abi: escrowAbi,
    functionName: 'getDeposit',
    args: [BigInt(created.body.responseObject.depositId)],
  });
  t.true(deposit.disputeProtectionEnabled, 'the list ran after setDisputeProtectionEnabled(false)');
});

test.serial('an unknown requestId is a 404 to its own wallet too; the requestId is read in any letter case', async (t) => {
  t.timeout(60_000);
  const maker = await signInEmbedded(gateway, 1);
  const unknown = await atomicCreateStatus(gateway, maker.headers, randomUUID());
  t.is(unknown.status, 404);
  t.is(unknown.body.errorCode, 'REQUEST_NOT_FOUND');
  const request = depositRequest(local, parseUnits('5', 6));
  const created = await atomicCreate(gateway, maker.headers, { ...request, requestId: request.requestId.toUpperCase() });
  t.is(created.status, 201);
  const replay = await atomicCreate(gateway, maker.headers, request);
  t.deepEqual(replay.body.responseObject, created.body.responseObject, 'the lower-case requestId is the same request');
  t.is((await atomicCreateStatus(gateway, maker.headers, request.requestId.toUpperCase())).status, 200);
});

test.serial('two requests under one requestId at once: one is created, the other is a 409, one deposit', async (t) => {
  t.timeout(60_000);
  const maker = await signInEmbedded(gateway, 2);
  const request = depositRequest(local, parseUnits('5', 6));
  const before = await depositCount();
  const answers = await Promise.all([
    atomicCreate(gateway, maker.headers, request),
    atomicCreate(gateway, maker.headers, { ...request, calls: { ...request.calls, setDisputeProtectionEnabled: disputeProtectionCall(false) } }),
  ]);
  t.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409]);
  await untilOnClock(
    gateway.clock,
    () => atomicCreateStatus(gateway, maker.headers, request.requestId),
    (answer) => answer.body.responseObject?.status !== 'pending',
    'settled',
  );
  t.is(await depositCount(), before + 1n);
});

test.serial('requests in flight at once are reserved consecutive ids, and none has to be submitted again', async (t) => {
  t.timeout(120_000);
  const [first, second] = [await signInEmbedded(gateway, 3), await signInEmbedded(gateway, 4)];
  const [a, b] = [depositRequest(local, parseUnits('5', 6)), depositRequest(local, parseUnits('5', 6))];
  const next = (await depositCount()) + 1n;
  await local.testClient.setAutomine(false);
  let automining = false;
  t.teardown(async () => void (automining || (await local.testClient.setAutomine(true))));
  const createdA = await atomicCreate(gateway, first.headers, a);
  const createdB = await atomicCreate(gateway, second.headers, b);
  t.deepEqual([createdA.body.responseObject.depositId, createdB.body.responseObject.depositId], [next.toString(), (next + 1n).toString()]);
  await local.testClient.mine({ blocks: 1 });
  await local.testClient.setAutomine(true);
  automining = true;
  for (const [maker, request, id] of [
    [first, a, next],
    [second, b, next + 1n],
  ] as const) {
    const status = await untilOnClock(
      gateway.clock,
      () => atomicCreateStatus(gateway, maker.headers, request.requestId),
      (answer) => answer.body.responseObject?.status !== 'pending',
      'confirmed',
    );
    t.like(status.body.responseObject, { status: 'confirmed', depositId: id.toString() });
  }
  t.is(await gateway.node.relayer!.read(`${b.requestId}-batch-1`), null, 'the second batch was built for its own id, not resubmitted');
});
