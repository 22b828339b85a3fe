/**
 * Extending an intent on a real anvil: the guardian recorded at its signal moves its expiry (the
 * orchestrator's and the escrow lock's alike) and pays the extension fee; every other caller, an
 * ended or expired intent, a five-day lifetime and a fee the guardian cannot pay are refused. A
 * payment made before the new expiry still proves the intent; a stranger cancels only after it.
 * Serial: one chain, its nonces and its clock.
 */
import test from 'ava';
import {
  erc20Abi,
  keccak256,
  maxUint256,
  parseEventLogs,
  parseUnits,
  stringToHex,
  zeroAddress,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  DEFAULT_INTENT_EXPIRATION_SECONDS,
  LOCAL_EXTENSION_FEE,
  LOCAL_EXTENSION_TOKEN_MINTED,
  LOCAL_INTENT_GUARDIAN_INDEX,
  anvilTestAccount,
  escrowAbi,
  orchestratorAbi,
  protocolErrorsAbi,
  startLocalChain,
  type LocalChain,
} from '../../../indexer/chain/index.js';
import { revertOf } from '../../support/chain-revert.js';
import { fulfilOn, paymentEvidence, witnessAttestation } from '../../support/local-attestation.js';
import { depositOn } from '../../support/local-deposit.js';
import { acceptCurrency, signalOn } from '../../support/local-intent.js';

const usdc = (amount: string): bigint => parseUnits(amount, 6);
const VENMO = keccak256(stringToHex('venmo'));
const USD = keccak256(stringToHex('USD'));
const RATE = parseUnits('1.02', 18);
const MAKER_PAYEE = keccak256(stringToHex('maker-venmo-id'));
const DAY = 24n * 60n * 60n;

const witness = privateKeyToAccount(generatePrivateKey());
const guardian = anvilTestAccount(LOCAL_INTENT_GUARDIAN_INDEX);
const maker = anvilTestAccount(2);
const taker = anvilTestAccount(3);
const payee = anvilTestAccount(4);
const stranger = anvilTestAccount(5);

let chain: LocalChain;
let depositId: bigint;
let token: Address;

test.before(async () => {
  chain = await startLocalChain({ witness: witness.address });
  await chain.mintUsdc(maker.address, usdc('1000'));
  ({ depositId } = await depositOn(chain, maker, usdc('1000'), { range: { min: usdc('1'), max: usdc('100') } }));
  await chain.confirm(
    await chain
      .walletFor(maker)
      .writeContract({ address: chain.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, VENMO, MAKER_PAYEE] }),
  );
  await acceptCurrency(chain, maker, depositId, VENMO, USD, RATE);
  token = await read('extensionToken');
});

test.after.always(async () => {
  await chain?.stop();
});

const read = <F extends 'extensionToken' | 'extensionFee' | 'extensionFeeRecipient' | 'intentGuardian'>(functionName: F) =>
  chain.publicClient.readContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName });

const orchestrator = (account: LocalAccount, functionName: string, args: readonly unknown[]) =>
  chain
    .walletFor(account)
    .writeContract({ address: chain.orchestrator, abi: [...orchestratorAbi, ...protocolErrorsAbi], functionName, args } as never) as Promise<Hash>;

const extend = (intentHash: Hash, additional: bigint, account: LocalAccount = guardian) =>
  orchestrator(account, 'extendIntentExpiry', [intentHash, additional]);

const tokenCall = (account: LocalAccount, functionName: 'approve' | 'transfer', args: readonly [Address, bigint]) =>
  chain.walletFor(account).writeContract({ address: token, abi: erc20Abi, functionName, args });

const balanceOf = (account: Address) => chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] });

interface Signalled {
  intentHash: Hash;
  timestamp: bigint;
  expiryTime: bigint;
}

async function signal(amount = usdc('10')): Promise<Signalled> {
  const receipt = await chain.confirm(
    await signalOn(chain, taker, { depositId, amount, to: payee.address, paymentMethod: VENMO, fiatCurrency: USD, conversionRate: RATE }),
  );
  const [signalled] = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' });
  const { timestamp } = signalled!.args;
  return { intentHash: signalled!.args.intentHash, timestamp, expiryTime: timestamp + DEFAULT_INTENT_EXPIRATION_SECONDS };
}

/** Both expiries of an open intent: the orchestrator's and the escrow lock's. */
async function expiries(intentHash: Hash) {
  const intent = await chain.publicClient.readContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'getIntent', args: [intentHash] });
  const lock = await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'lockExpiry', args: [depositId, intentHash] });
  return { intent: intent.expiryTime, lock };
}

test.serial('the local deployment names the relayer’s wallet as guardian, charges a small fee to the owner and funds the guardian for it', async (t) => {
  t.is(await read('intentGuardian'), guardian.address);
  t.is(await read('extensionFee'), LOCAL_EXTENSION_FEE);
  t.is(await read('extensionFeeRecipient'), chain.deployer.address);
  t.is(await balanceOf(guardian.address), LOCAL_EXTENSION_TOKEN_MINTED);
  t.is(
    await chain.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [guardian.address, chain.orchestrator] }),
    maxUint256,
  );
});

test.serial('an extension moves the intent’s and the lock’s expiry by exactly the time added, announces it and charges the guardian the fee', async (t) => {
  const intent = await signal();
  t.deepEqual(await expiries(intent.intentHash), { intent: intent.expiryTime, lock: intent.expiryTime });
  const guardianBefore = await balanceOf(guardian.address);
  const recipientBefore = await balanceOf(chain.deployer.address);

  const receipt = await chain.confirm(await extend(intent.intentHash, DAY));
  const newExpiryTime = intent.expiryTime + DAY;
  t.deepEqual(await expiries(intent.intentHash), { intent: newExpiryTime, lock: newExpiryTime });
  t.deepEqual(
    parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentExtended' }).map((log) => log.args),
    [{ intentHash: intent.intentHash, newExpiryTime, additionalTime: DAY }],
  );
  t.deepEqual(
    parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'FundsLockExtended' }).map((log) => log.args),
    [{ depositId, intentHash: intent.intentHash, expiryTime: newExpiryTime }],
  );
  t.is(await balanceOf(guardian.address), guardianBefore - LOCAL_EXTENSION_FEE);
  t.is(await balanceOf(chain.deployer.address), recipientBefore + LOCAL_EXTENSION_FEE);
});

test.serial('only the guardian recorded at the signal extends: anyone else, and an intent signalled with no guardian, are refused', async (t) => {
  const guarded = await signal();
  t.deepEqual(await revertOf(extend(guarded.intentHash, DAY, stranger)), { errorName: 'NotIntentGuardian', args: [stranger.address, guardian.address] });

  await chain.confirm(await orchestrator(chain.deployer, 'setIntentGuardian', [zeroAddress]));
  const unguarded = await signal();
  await chain.confirm(await orchestrator(chain.deployer, 'setIntentGuardian', [stranger.address]));
  t.deepEqual(await revertOf(extend(unguarded.intentHash, DAY)), { errorName: 'IntentGuardianNotSet', args: [unguarded.intentHash] });
  t.deepEqual(await revertOf(extend(unguarded.intentHash, DAY, stranger)), { errorName: 'IntentGuardianNotSet', args: [unguarded.intentHash] });
  // A guardian set later takes no intent signalled before it; the one recorded keeps it.
  t.deepEqual(await revertOf(extend(guarded.intentHash, DAY, stranger)), { errorName: 'NotIntentGuardian', args: [stranger.address, guardian.address] });
  await chain.confirm(await extend(guarded.intentHash, DAY));

  const receipt = await chain.confirm(await orchestrator(chain.deployer, 'setIntentGuardian', [guardian.address]));
  t.deepEqual(
    parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentGuardianUpdated' }).map((log) => log.args),
    [{ intentGuardian: guardian.address }],
  );
  t.deepEqual(await revertOf(orchestrator(stranger, 'setIntentGuardian', [stranger.address])), {
    errorName: 'OwnableUnauthorizedAccount',
    args: [stranger.address],
  });
});

test.serial('an ended intent, an expired one and nothing added are refused', async (t) => {
  const cancelled = await signal();
  await chain.confirm(await orchestrator(taker, 'cancelIntent', [cancelled.intentHash]));
  t.deepEqual(await revertOf(extend(cancelled.intentHash, DAY)), { errorName: 'IntentNotFound', args: [cancelled.intentHash] });

  const intent = await signal();
  t.deepEqual(await revertOf(extend(intent.intentHash, 0n)), { errorName: 'ZeroValue', args: [] });
  const { timestamp } = await chain.publicClient.getBlock();
  await chain.advanceTime(Number(intent.expiryTime - timestamp));
  t.deepEqual(await revertOf(extend(intent.intentHash, DAY)), { errorName: 'IntentAlreadyExpired', args: [intent.intentHash, intent.expiryTime] });
  t.deepEqual(await expiries(intent.intentHash), { intent: intent.expiryTime, lock: intent.expiryTime });
});

test.serial('no extension moves the expiry past five days from the signal; up to it, they may add up', async (t) => {
  const intent = await signal();
  const latest = intent.timestamp + 5n * DAY;
  const left = latest - intent.expiryTime;
  t.deepEqual(await revertOf(extend(intent.intentHash, left + 1n)), { errorName: 'IntentLifetimeExceeded', args: [intent.intentHash, left + 1n, latest] });
  // An amount that would overflow the sum is refused the same way, not with a panic.
  const huge = maxUint256;
  t.deepEqual(await revertOf(extend(intent.intentHash, huge)), { errorName: 'IntentLifetimeExceeded', args: [intent.intentHash, huge, latest] });

  await chain.confirm(await extend(intent.intentHash, DAY));
  await chain.confirm(await extend(intent.intentHash, left - DAY));
  t.deepEqual(await expiries(intent.intentHash), { intent: latest, lock: latest });
  t.deepEqual(await revertOf(extend(intent.intentHash, 1n)), { errorName: 'IntentLifetimeExceeded', args: [intent.intentHash, 1n, latest] });
});

test.serial('a guardian short of the fee’s balance or allowance is refused; a zero fee needs neither', async (t) => {
  const intent = await signal();
  const held = await balanceOf(guardian.address);

  await chain.confirm(await tokenCall(guardian, 'approve', [chain.orchestrator, LOCAL_EXTENSION_FEE - 1n]));
  t.deepEqual(await revertOf(extend(intent.intentHash, DAY)), {
    errorName: 'ExtensionFeeNotPayable',
    args: [guardian.address, LOCAL_EXTENSION_FEE, held, LOCAL_EXTENSION_FEE - 1n],
  });
  await chain.confirm(await tokenCall(guardian, 'approve', [chain.orchestrator, maxUint256]));

  await chain.confirm(await tokenCall(guardian, 'transfer', [stranger.address, held - LOCAL_EXTENSION_FEE + 1n]));
  t.deepEqual(await revertOf(extend(intent.intentHash, DAY)), {
    errorName: 'ExtensionFeeNotPayable',
    args: [guardian.address, LOCAL_EXTENSION_FEE, LOCAL_EXTENSION_FEE - 1n, maxUint256],
  });
  t.deepEqual(await expiries(intent.intentHash), { intent: intent.expiryTime, lock: intent.expiryTime });

  await chain.confirm(await orchestrator(chain.deployer, 'setExtensionFee', [zeroAddress, 0n, zeroAddress]));
  await chain.confirm(await extend(intent.intentHash, DAY));
  t.is(await balanceOf(guardian.address), LOCAL_EXTENSION_FEE - 1n, 'a free extension takes nothing');
  t.deepEqual(await revertOf(orchestrator(chain.deployer, 'setExtensionFee', [zeroAddress, 1n, chain.deployer.address])), {
    errorName: 'ZeroAddress',
    args: [],
  });
  t.deepEqual(await revertOf(orchestrator(chain.deployer, 'setExtensionFee', [token, 1n, zeroAddress])), { errorName: 'ZeroAddress', args: [] });
  t.deepEqual(await revertOf(orchestrator(stranger, 'setExtensionFee', [token, 1n, stranger.address])), {
    errorName: 'OwnableUnauthorizedAccount',
    args: [stranger.address],
  });

  // Back as deployed, for the tests after.
  await chain.confirm(await tokenCall(stranger, 'transfer', [guardian.address, held - LOCAL_EXTENSION_FEE + 1n]));
  const receipt = await chain.confirm(await orchestrator(chain.deployer, 'setExtensionFee', [token, LOCAL_EXTENSION_FEE, chain.deployer.address]));
  t.deepEqual(
    parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'ExtensionFeeUpdated' }).map((log) => log.args),
    [{ token, fee: LOCAL_EXTENSION_FEE, recipient: chain.deployer.address }],
  );
});

test.serial('a payment made after the old expiry but before the new one proves the extended intent', async (t) => {
  const intent = await signal();
  await chain.confirm(await extend(intent.intentHash, DAY));
  const newExpiryTime = intent.expiryTime + DAY;
  const evidence = (paymentId: string, expiryTime: bigint): Hex =>
    paymentEvidence(
      { ...intent, amount: usdc('10'), expiryTime, paymentMethod: VENMO, fiatCurrency: USD, payeeDetails: MAKER_PAYEE, conversionRate: RATE },
      paymentId,
      {},
      { paidAtMs: (intent.expiryTime + 3600n) * 1000n },
    );
  const proof = (paymentId: string, expiryTime: bigint) => witnessAttestation(chain, [witness], intent.intentHash, usdc('10'), evidence(paymentId, expiryTime));

  // The witness must be shown the intent as it is now: the old expiry no longer matches it.
  t.deepEqual(await revertOf(fulfilOn(chain, stranger, await proof('venmo-old-window', intent.expiryTime))), {
    errorName: 'SnapshotMismatch',
    args: ['expiryTime'],
  });
  await chain.advanceTime(Number(DEFAULT_INTENT_EXPIRATION_SECONDS + 7200n));
  const receipt = await chain.confirm(await fulfilOn(chain, stranger, await proof('venmo-extended-window', newExpiryTime)));
  t.deepEqual(
    parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentFulfilled' }).map((log) => log.args),
    [{ intentHash: intent.intentHash, fundsTransferredTo: payee.address, amount: usdc('10'), isManualRelease: false }],
  );
  t.is(
    await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'lockExpiry', args: [depositId, intent.intentHash] }),
    0n,
    'an ended intent’s lock keeps no expiry',
  );
});

test.serial('after an extension a stranger may cancel only once the new expiry has passed', async (t) => {
  const intent = await signal();
  await chain.confirm(await extend(intent.intentHash, DAY));
  const newExpiryTime = intent.expiryTime + DAY;
  const cancel = () => orchestrator(stranger, 'cancelIntent', [intent.intentHash]);

  const { timestamp } = await chain.publicClient.getBlock();
  await chain.advanceTime(Number(intent.expiryTime - timestamp));
  t.deepEqual(await revertOf(cancel()), { errorName: 'IntentNotExpired', args: [intent.intentHash, newExpiryTime] });
  await chain.advanceTime(Number(DAY));
  const receipt = await chain.confirm(await cancel());
  t.deepEqual(
    parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentPruned' }).map((log) => log.args),
    [{ intentHash: intent.intentHash }],
  );
});

test.serial('only the orchestrator moves a lock’s expiry', async (t) => {
  const intent = await signal();
  t.deepEqual(
    await revertOf(
      chain.walletFor(stranger).writeContract({
        address: chain.escrow,
        abi: escrowAbi,
        functionName: 'extendLockExpiry',
        args: [depositId, intent.intentHash, intent.expiryTime + DAY],
      }),
    ),
    { errorName: 'UnauthorizedCaller', args: [stranger.address] },
  );
});
