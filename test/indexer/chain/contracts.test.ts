/**
 * The local contracts on a real anvil. Events are decoded with the exact signature strings Base's
 * contracts use (not with our artifacts), which proves the indexer's decoding serves both chains.
 * Serial: the tests share one chain, its accounts' nonces and its clock.
 */
import test from 'ava';
import {
  isAddressEqual,
  keccak256,
  parseAbi,
  parseEventLogs,
  parseUnits,
  stringToHex,
  type Abi,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
  type TransactionReceipt,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { encodePaymentProof, type PaymentAttestation } from '../../../enclave/attestation/payment-attestation.js';
import {
  DEFAULT_INTENT_EXPIRATION_SECONDS,
  anvilTestAccount,
  escrowAbi,
  mockUSDCAbi,
  orchestratorAbi,
  startLocalChain,
  unifiedPaymentVerifierAbi,
  type LocalChain,
} from '../../../indexer/chain/index.js';
import { revertOf } from '../../support/chain-revert.js';
import { fulfilOn, paymentEvidence, witnessAttestation, type EvidenceTimes } from '../../support/local-attestation.js';
import { depositOn } from '../../support/local-deposit.js';
import { acceptCurrency, signalOn, type IntentTerms, type SignalOptions } from '../../support/local-intent.js';

const escrowEvents = parseAbi([
  'event DepositReceived(uint256 indexed depositId, address indexed depositor, address indexed token, uint256 amount, (uint256,uint256) intentAmountRange, address delegate, address intentGuardian)',
  'event DepositFundsAdded(uint256 indexed depositId, address indexed depositor, uint256 amount)',
  'event DepositWithdrawn(uint256 indexed depositId, address indexed depositor, uint256 amount)',
  'event DepositClosed(uint256 depositId, address depositor)',
  'event FundsLocked(uint256 indexed depositId, bytes32 indexed intentHash, uint256 amount, uint256 expiryTime)',
  'event FundsUnlocked(uint256 indexed depositId, bytes32 indexed intentHash, uint256 amount)',
  'event FundsUnlockedAndTransferred(uint256 indexed depositId, bytes32 indexed intentHash, uint256 unlockedAmount, uint256 transferredAmount, address to)',
  'event DepositPaymentMethodSet(uint256 indexed depositId, bytes32 indexed paymentMethod, bytes32 payeeDetails)',
]);
const orchestratorEvents = parseAbi([
  'event IntentSignaled(bytes32 indexed intentHash, address indexed escrow, uint256 indexed depositId, bytes32 paymentMethod, address owner, address to, uint256 amount, bytes32 fiatCurrency, uint256 conversionRate, uint256 timestamp)',
  'event IntentFulfilled(bytes32 indexed intentHash, address indexed fundsTransferredTo, uint256 amount, bool isManualRelease)',
  'event IntentPruned(bytes32 indexed intentHash)',
]);
const transferEvents = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

const usdc = (amount: string): bigint => parseUnits(amount, 6);
const VENMO = keccak256(stringToHex('venmo'));
const USD = keccak256(stringToHex('USD'));
const RATE = parseUnits('1.02', 18);
/** The maker's floor for USD on venmo: intents at RATE clear it. */
const FLOOR = parseUnits('1.01', 18);
const MAKER_PAYEE = keccak256(stringToHex('maker-venmo-id'));

// Witnesses are fresh keys, not dev accounts: only what the verifier registered may sign.
const witness = privateKeyToAccount(generatePrivateKey());
const impostor = privateKeyToAccount(generatePrivateKey());
const maker = anvilTestAccount(2);
const taker = anvilTestAccount(3);
const payee = anvilTestAccount(4);
const stranger = anvilTestAccount(5);

let chain: LocalChain;

test.before(async () => {
  chain = await startLocalChain({ witness: witness.address });
});

test.after.always(async () => {
  await chain?.stop();
});

/** The logs `address` emitted in `receipt`, decoded by `abi`; logs of other events are left out. */
function eventsOf<const TAbi extends Abi>(receipt: TransactionReceipt, abi: TAbi, address: Address) {
  return parseEventLogs({ abi, logs: receipt.logs.filter((log) => isAddressEqual(log.address, address)), strict: true });
}

async function usdcBalance(account: Address): Promise<bigint> {
  return chain.publicClient.readContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [account] });
}

async function deposit(amount: bigint, range = { min: usdc('1'), max: usdc('50') }): Promise<{ depositId: bigint; receipt: TransactionReceipt }> {
  await chain.mintUsdc(maker.address, amount);
  const created = await depositOn(chain, maker, amount, { range, delegate: stranger.address, intentGuardian: payee.address });
  await acceptVenmo(created.depositId, MAKER_PAYEE);
  await acceptCurrency(chain, maker, created.depositId, VENMO, USD, FLOOR);
  return created;
}

async function acceptVenmo(depositId: bigint, payeeDetails: Hex, account: LocalAccount = maker): Promise<TransactionReceipt> {
  return chain.confirm(
    await chain
      .walletFor(account)
      .writeContract({ address: chain.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, VENMO, payeeDetails] }),
  );
}

interface Signaled {
  intentHash: Hash;
  amount: bigint;
  timestamp: bigint;
  /** As the escrow locked the funds until, Unix seconds. */
  expiryTime: bigint;
  receipt: TransactionReceipt;
}

const venmoIntent = (depositId: bigint, amount: bigint, terms: Partial<IntentTerms> = {}): IntentTerms => ({
  depositId,
  amount,
  to: payee.address,
  paymentMethod: VENMO,
  fiatCurrency: USD,
  conversionRate: RATE,
  ...terms,
});

/** signalIntent as the taker, approved by the local gating service: the transaction, not yet mined. */
const signalling = (depositId: bigint, amount: bigint, terms: Partial<IntentTerms> = {}, options: SignalOptions = {}) =>
  signalOn(chain, taker, venmoIntent(depositId, amount, terms), options);

async function signal(depositId: bigint, amount: bigint, terms: Partial<IntentTerms> = {}): Promise<Signaled> {
  const receipt = await chain.confirm(await signalling(depositId, amount, terms));
  const [signaled] = eventsOf(receipt, orchestratorEvents, chain.orchestrator);
  const [locked] = eventsOf(receipt, escrowEvents, chain.escrow);
  if (signaled?.eventName !== 'IntentSignaled') throw new Error('no IntentSignaled');
  if (locked?.eventName !== 'FundsLocked') throw new Error('no FundsLocked');
  return { intentHash: signaled.args.intentHash, amount, timestamp: signaled.args.timestamp, expiryTime: locked.args.expiryTime, receipt };
}

const attest = (intentHash: Hash, releaseAmount: bigint, data: Hex, signer: LocalAccount = witness): Promise<PaymentAttestation> =>
  witnessAttestation(chain, [signer], intentHash, releaseAmount, data);

/** A relayer, neither party, sends it: the attestation is the authority, not the sender. */
const fulfil = async (attestation: PaymentAttestation, intentHash?: Hash) => chain.confirm(await fulfilOn(chain, stranger, attestation, intentHash));

async function lockedDeposit(depositId: bigint) {
  return chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [depositId] });
}

const paymentData = (intent: Signaled, paymentId: string, lies: Parameters<typeof paymentEvidence>[2] = {}, times: EvidenceTimes = {}): Hex =>
  paymentEvidence({ ...intent, paymentMethod: VENMO, fiatCurrency: USD, payeeDetails: MAKER_PAYEE, conversionRate: RATE }, paymentId, lies, times);

test.serial('MockUSDC looks like USDC, only its owner mints, and transfers emit Transfer', async (t) => {
  const read = <F extends 'name' | 'symbol' | 'decimals'>(functionName: F) =>
    chain.publicClient.readContract({ address: chain.usdc, abi: mockUSDCAbi, functionName });
  t.deepEqual([await read('name'), await read('symbol'), await read('decimals')], ['USD Coin', 'USDC', 6]);

  await chain.mintUsdc(maker.address, usdc('10'));
  const receipt = await chain.confirm(
    await chain.walletFor(maker).writeContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'transfer', args: [stranger.address, usdc('2.5')] }),
  );
  const transfers = eventsOf(receipt, transferEvents, chain.usdc);
  t.deepEqual(
    transfers.map((log) => log.args),
    [{ from: maker.address, to: stranger.address, value: usdc('2.5') }],
  );
  t.is(await usdcBalance(stranger.address), usdc('2.5'));

  const refused = await revertOf(
    chain.walletFor(stranger).writeContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'mint', args: [stranger.address, 1n] }),
  );
  t.deepEqual(refused, { errorName: 'OwnableUnauthorizedAccount', args: [stranger.address] });
});

test.serial('a deposit pulls its tokens; funds can be added, and withdrawing everything closes it', async (t) => {
  const makerBefore = await usdcBalance(maker.address);
  const { depositId, receipt } = await deposit(usdc('100'));

  const [received] = eventsOf(receipt, escrowEvents, chain.escrow);
  t.deepEqual(received?.args, {
    depositId,
    depositor: maker.address,
    token: chain.usdc,
    amount: usdc('100'),
    intentAmountRange: [usdc('1'), usdc('50')],
    delegate: stranger.address,
    intentGuardian: payee.address,
  });
  t.deepEqual(
    eventsOf(receipt, transferEvents, chain.usdc).map((log) => log.args),
    [{ from: maker.address, to: chain.escrow, value: usdc('100') }],
  );

  await chain.mintUsdc(maker.address, usdc('20'));
  const wallet = chain.walletFor(maker);
  await chain.confirm(await wallet.writeContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [chain.escrow, usdc('20')] }));
  const added = await chain.confirm(
    await wallet.writeContract({ address: chain.escrow, abi: escrowAbi, functionName: 'addFunds', args: [depositId, usdc('20')] }),
  );
  t.deepEqual(
    eventsOf(added, escrowEvents, chain.escrow).map(({ eventName, args }) => ({ eventName, args })),
    [{ eventName: 'DepositFundsAdded', args: { depositId, depositor: maker.address, amount: usdc('20') } }],
  );

  const withdrawn = await chain.confirm(
    await wallet.writeContract({ address: chain.escrow, abi: escrowAbi, functionName: 'withdrawDeposit', args: [depositId] }),
  );
  t.deepEqual(
    eventsOf(withdrawn, escrowEvents, chain.escrow).map(({ eventName, args }) => ({ eventName, args })),
    [
      { eventName: 'DepositWithdrawn', args: { depositId, depositor: maker.address, amount: usdc('120') } },
      { eventName: 'DepositClosed', args: { depositId, depositor: maker.address } },
    ],
  );
  t.is(await usdcBalance(maker.address), makerBefore + usdc('120'));
  t.is((await revertOf(lockedDeposit(depositId))).errorName, 'DepositNotFound');
});

test.serial('signalling an intent locks its amount: FundsLocked and IntentSignaled', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const { intentHash, receipt } = await signal(depositId, usdc('30'));
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });

  t.deepEqual(
    eventsOf(receipt, escrowEvents, chain.escrow).map(({ eventName, args }) => ({ eventName, args })),
    [
      {
        eventName: 'FundsLocked',
        args: { depositId, intentHash, amount: usdc('30'), expiryTime: block.timestamp + DEFAULT_INTENT_EXPIRATION_SECONDS },
      },
    ],
  );
  t.deepEqual(
    eventsOf(receipt, orchestratorEvents, chain.orchestrator).map(({ eventName, args }) => ({ eventName, args })),
    [
      {
        eventName: 'IntentSignaled',
        args: {
          intentHash,
          escrow: chain.escrow,
          depositId,
          paymentMethod: VENMO,
          owner: taker.address,
          to: payee.address,
          amount: usdc('30'),
          fiatCurrency: USD,
          conversionRate: RATE,
          timestamp: block.timestamp,
        },
      },
    ],
  );
  const held = await lockedDeposit(depositId);
  t.is(held.available, usdc('70'));
  t.is(held.locked, usdc('30'));
});

test.serial('an intent outside the deposit range or beyond its liquidity is refused', async (t) => {
  const { depositId } = await deposit(usdc('60'));
  t.is((await revertOf(signalling(depositId, usdc('0.5')))).errorName, 'AmountBelowMin');
  t.is((await revertOf(signalling(depositId, usdc('51')))).errorName, 'AmountAboveMax');
  await signal(depositId, usdc('50'));
  t.deepEqual(await revertOf(signalling(depositId, usdc('20'))), {
    errorName: 'InsufficientDepositLiquidity',
    args: [depositId, usdc('10'), usdc('20')],
  });
});

test.serial('only the orchestrator moves locked funds', async (t) => {
  const { depositId } = await deposit(usdc('10'));
  const refused = await revertOf(
    chain.walletFor(stranger).writeContract({
      address: chain.escrow,
      abi: escrowAbi,
      functionName: 'lockFunds',
      args: [depositId, keccak256('0x01'), usdc('5'), 0n],
    }),
  );
  t.deepEqual(refused, { errorName: 'UnauthorizedCaller', args: [stranger.address] });
});

test.serial('an attested fulfilment pays `to`, returns the rest to the deposit and ends the intent', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const intent = await signal(depositId, usdc('30'));
  const { intentHash } = intent;
  const payeeBefore = await usdcBalance(payee.address);

  // The fiat paid was worth a little less than signalled: the witness attests 29.5.
  const receipt = await fulfil(await attest(intentHash, usdc('29.5'), paymentData(intent, 'venmo-1')));

  t.is(await usdcBalance(payee.address), payeeBefore + usdc('29.5'));
  t.deepEqual(
    eventsOf(receipt, escrowEvents, chain.escrow).map(({ eventName, args }) => ({ eventName, args })),
    [
      {
        eventName: 'FundsUnlockedAndTransferred',
        args: { depositId, intentHash, unlockedAmount: usdc('30'), transferredAmount: usdc('29.5'), to: chain.orchestrator },
      },
    ],
  );
  // The escrow pays the orchestrator, which takes the fees out (none are set here) and pays the rest to `to`.
  t.deepEqual(
    eventsOf(receipt, transferEvents, chain.usdc).map((log) => log.args),
    [
      { from: chain.escrow, to: chain.orchestrator, value: usdc('29.5') },
      { from: chain.orchestrator, to: payee.address, value: usdc('29.5') },
    ],
  );
  t.deepEqual(
    eventsOf(receipt, orchestratorEvents, chain.orchestrator).map(({ eventName, args }) => ({ eventName, args })),
    [{ eventName: 'IntentFulfilled', args: { intentHash, fundsTransferredTo: payee.address, amount: usdc('29.5'), isManualRelease: false } }],
  );
  const after = await lockedDeposit(depositId);
  t.is(after.available, usdc('70.5'));
  t.is(after.locked, 0n);
});

test.serial('an attestation signed by anyone but a registered witness reverts', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const intent = await signal(depositId, usdc('10'));
  const forged = await attest(intent.intentHash, usdc('10'), paymentData(intent, 'venmo-2'), impostor);
  t.deepEqual(await revertOf(fulfil(forged)), { errorName: 'UnknownWitness', args: [impostor.address] });
  t.is((await lockedDeposit(depositId)).locked, usdc('10'));
});

test.serial('data that does not hash to the signed dataHash reverts', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const intent = await signal(depositId, usdc('10'));
  const signed = await attest(intent.intentHash, usdc('10'), paymentData(intent, 'venmo-3'));

  const swapped = { ...signed, data: paymentData(intent, 'venmo-other') };
  t.deepEqual(await revertOf(fulfil(swapped)), {
    errorName: 'DataHashMismatch',
    args: [signed.dataHash, keccak256(swapped.data)],
  });
  // Matching the hash to the new data breaks the signature instead: the witness signed the old hash.
  const rehashed = { ...swapped, dataHash: keccak256(swapped.data) };
  t.is((await revertOf(fulfil(rehashed))).errorName, 'UnknownWitness');
});

test.serial('a release above the locked amount reverts', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const intent = await signal(depositId, usdc('10'));
  const greedy = await attest(intent.intentHash, usdc('10.000001'), paymentData(intent, 'venmo-4'));
  t.deepEqual(await revertOf(fulfil(greedy)), { errorName: 'ReleaseExceedsLocked', args: [usdc('10.000001'), usdc('10')] });
});

test.serial('a second fulfilment of the same intent reverts', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const intent = await signal(depositId, usdc('10'));
  const attestation = await attest(intent.intentHash, usdc('10'), paymentData(intent, 'venmo-5'));
  await fulfil(attestation);
  t.deepEqual(await revertOf(fulfil(attestation)), { errorName: 'IntentNotFound', args: [intent.intentHash] });
});

test.serial('a deposit is paid only on the payment methods its maker set, to the payee set when the intent was signalled', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const CASHAPP = keccak256(stringToHex('cashapp'));
  t.deepEqual(await revertOf(signalling(depositId, usdc('10'), { paymentMethod: CASHAPP })), {
    errorName: 'PaymentMethodNotAccepted',
    args: [depositId, CASHAPP],
  });
  t.deepEqual(await revertOf(acceptVenmo(depositId, MAKER_PAYEE, taker)), { errorName: 'UnauthorizedCaller', args: [taker.address] });

  const intent = await signal(depositId, usdc('10'));
  // The maker moves to another payee: the open intent is still paid to the payee it was signalled with.
  const moved = await acceptVenmo(depositId, keccak256(stringToHex('new-venmo-id')));
  t.deepEqual(
    eventsOf(moved, escrowEvents, chain.escrow).map((log) => log.args),
    [{ depositId, paymentMethod: VENMO, payeeDetails: keccak256(stringToHex('new-venmo-id')) }],
  );
  await fulfil(await attest(intent.intentHash, usdc('10'), paymentData(intent, 'venmo-6')));
  t.is((await lockedDeposit(depositId)).locked, 0n);
});

test.serial('the snapshot the witness was shown must be the intent on chain', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const intent = await signal(depositId, usdc('10'));
  const other = await signal(depositId, usdc('10'));
  const lies: [string, Record<string, unknown>][] = [
    ['intentHash', { intentHash: other.intentHash }],
    ['amount', { amount: usdc('1') }],
    ['paymentMethod', { paymentMethod: keccak256(stringToHex('cashapp')) }],
    ['fiatCurrency', { fiatCurrency: keccak256(stringToHex('EUR')) }],
    ['payeeDetails', { payeeDetails: keccak256(stringToHex('buyer-own-id')) }],
    ['conversionRate', { conversionRate: 1n }],
    ['signalTimestamp', { signalTimestamp: intent.timestamp - 3600n }],
    // A later expiry would stretch the window the witness checked the payment's time against.
    ['expiryTime', { expiryTime: intent.expiryTime + 3600n }],
  ];
  for (const [field, lie] of lies) {
    const attestation = await attest(intent.intentHash, usdc('10'), paymentData(intent, `venmo-lie-${field}`, lie));
    t.deepEqual(await revertOf(fulfil(attestation)), { errorName: 'SnapshotMismatch', args: [field] }, field);
  }
  t.is((await lockedDeposit(depositId)).locked, usdc('20'));
});

test.serial("a payment dated outside the intent's window reverts even with a witness's signature; the signed buffer widens both ends", async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const late = await signal(depositId, usdc('10'));
  const closesMs = late.expiryTime * 1000n;
  const afterExpiry = await attest(late.intentHash, usdc('10'), paymentData(late, 'venmo-after-expiry', {}, { paidAtMs: closesMs + 1n }));
  t.deepEqual(await revertOf(fulfil(afterExpiry)), { errorName: 'PaymentOutsideIntentWindow', args: [closesMs + 1n] });
  const beyondBuffer = await attest(
    late.intentHash,
    usdc('10'),
    paymentData(late, 'venmo-beyond-buffer', {}, { paidAtMs: closesMs + 60_001n, timestampBuffer: 60_000n }),
  );
  t.deepEqual(await revertOf(fulfil(beyondBuffer)), { errorName: 'PaymentOutsideIntentWindow', args: [closesMs + 60_001n] });
  await fulfil(
    await attest(late.intentHash, usdc('10'), paymentData(late, 'venmo-within-buffer', {}, { paidAtMs: closesMs + 60_000n, timestampBuffer: 60_000n })),
  );

  const early = await signal(depositId, usdc('10'));
  const opensMs = early.timestamp * 1000n;
  const beforeSignal = await attest(early.intentHash, usdc('10'), paymentData(early, 'venmo-before-signal', {}, { paidAtMs: opensMs - 1n }));
  t.deepEqual(await revertOf(fulfil(beforeSignal)), { errorName: 'PaymentOutsideIntentWindow', args: [opensMs - 1n] });
  await fulfil(
    await attest(early.intentHash, usdc('10'), paymentData(early, 'venmo-early-in-buffer', {}, { paidAtMs: opensMs - 60_000n, timestampBuffer: 60_000n })),
  );
  t.is((await lockedDeposit(depositId)).locked, 0n);
});

test.serial('an intent proved after its expiry, for a payment made inside its window, still pays out until someone cancels it', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const intent = await signal(depositId, usdc('10'));
  const payeeBefore = await usdcBalance(payee.address);
  // The buyer paid at the last moment of the window and proves it an hour after the expiry.
  const attestation = await attest(intent.intentHash, usdc('10'), paymentData(intent, 'venmo-proved-late', {}, { paidAtMs: intent.expiryTime * 1000n }));
  await chain.advanceTime(Number(intent.expiryTime - intent.timestamp) + 3600);
  const receipt = await fulfil(attestation);
  const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  t.true(block.timestamp > intent.expiryTime);
  t.deepEqual(
    eventsOf(receipt, orchestratorEvents, chain.orchestrator).map(({ eventName, args }) => ({ eventName, args })),
    [{ eventName: 'IntentFulfilled', args: { intentHash: intent.intentHash, fundsTransferredTo: payee.address, amount: usdc('10'), isManualRelease: false } }],
  );
  t.is(await usdcBalance(payee.address), payeeBefore + usdc('10'));
});

test.serial('one payment releases one intent: its nullifier is spent on chain', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const first = await signal(depositId, usdc('10'));
  const second = await signal(depositId, usdc('10'));
  await fulfil(await attest(first.intentHash, usdc('10'), paymentData(first, 'venmo-once')));
  const again = await attest(second.intentHash, usdc('10'), paymentData(second, 'venmo-once'));
  const nullifier = keccak256(`${VENMO}${keccak256(stringToHex('venmo-once')).slice(2)}` as Hex);
  t.deepEqual(await revertOf(fulfil(again)), { errorName: 'PaymentAlreadyUsed', args: [nullifier] });
  t.true(await chain.publicClient.readContract({ address: chain.verifier, abi: unifiedPaymentVerifierAbi, functionName: 'isNullified', args: [nullifier] }));

  const direct = await revertOf(
    chain.walletFor(stranger).writeContract({
      address: chain.verifier,
      abi: unifiedPaymentVerifierAbi,
      functionName: 'verifyPayment',
      args: [
        encodePaymentProof(again),
        second.intentHash,
        {
          amount: usdc('10'),
          paymentMethod: VENMO,
          fiatCurrency: USD,
          payeeDetails: MAKER_PAYEE,
          conversionRate: RATE,
          signalTimestamp: second.timestamp,
          expiryTime: second.expiryTime,
        },
      ],
    }),
  );
  t.deepEqual(direct, { errorName: 'UnauthorizedCaller', args: [stranger.address] });
});

test.serial('the maker can release an intent by hand', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const { intentHash } = await signal(depositId, usdc('12'));
  const release = (account: LocalAccount) =>
    chain.walletFor(account).writeContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'releaseFundsToPayer', args: [intentHash] });

  t.is((await revertOf(release(taker))).errorName, 'UnauthorizedCaller');
  const receipt = await chain.confirm(await release(maker));
  t.deepEqual(
    eventsOf(receipt, orchestratorEvents, chain.orchestrator).map((log) => log.args),
    [{ intentHash, fundsTransferredTo: payee.address, amount: usdc('12'), isManualRelease: true }],
  );
});

test.serial('an expired intent can be pruned by anyone, which unlocks its funds', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const { intentHash } = await signal(depositId, usdc('40'));
  const cancel = () =>
    chain.walletFor(stranger).writeContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'cancelIntent', args: [intentHash] });

  t.is((await revertOf(cancel())).errorName, 'IntentNotExpired');
  await chain.advanceTime(Number(DEFAULT_INTENT_EXPIRATION_SECONDS));
  const receipt = await chain.confirm(await cancel());

  t.deepEqual(
    eventsOf(receipt, escrowEvents, chain.escrow).map(({ eventName, args }) => ({ eventName, args })),
    [{ eventName: 'FundsUnlocked', args: { depositId, intentHash, amount: usdc('40') } }],
  );
  t.deepEqual(
    eventsOf(receipt, orchestratorEvents, chain.orchestrator).map(({ eventName, args }) => ({ eventName, args })),
    [{ eventName: 'IntentPruned', args: { intentHash } }],
  );
  const after = await lockedDeposit(depositId);
  t.is(after.available, usdc('100'));
  t.is(after.locked, 0n);
});

test.serial('withdrawing with an intent open keeps the deposit open until that intent ends', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const { intentHash } = await signal(depositId, usdc('25'));
  const withdraw = async () =>
    chain.confirm(await chain.walletFor(maker).writeContract({ address: chain.escrow, abi: escrowAbi, functionName: 'withdrawDeposit', args: [depositId] }));

  const first = await withdraw();
  t.deepEqual(
    eventsOf(first, escrowEvents, chain.escrow).map((log) => log.eventName),
    ['DepositWithdrawn'],
  );

  // The taker gives up: the owner may cancel before expiry, and the funds return to the deposit.
  await chain.confirm(
    await chain.walletFor(taker).writeContract({ address: chain.orchestrator, abi: orchestratorAbi, functionName: 'cancelIntent', args: [intentHash] }),
  );
  const second = await withdraw();
  t.deepEqual(
    eventsOf(second, escrowEvents, chain.escrow).map(({ eventName, args }) => ({ eventName, args })),
    [
      { eventName: 'DepositWithdrawn', args: { depositId, depositor: maker.address, amount: usdc('25') } },
      { eventName: 'DepositClosed', args: { depositId, depositor: maker.address } },
    ],
  );
});

test.serial('the verifier only lets its owner manage witnesses', async (t) => {
  const refused = await revertOf(
    chain.walletFor(stranger).writeContract({
      address: chain.verifier,
      abi: unifiedPaymentVerifierAbi,
      functionName: 'setWitness',
      args: [stranger.address, true],
    }),
  );
  t.deepEqual(refused, { errorName: 'OwnableUnauthorizedAccount', args: [stranger.address] });
  t.true(
    await chain.publicClient.readContract({ address: chain.verifier, abi: unifiedPaymentVerifierAbi, functionName: 'isWitness', args: [witness.address] }),
  );
});

test.serial('the proof is FulfillIntentParams.paymentProof: it must be for the intent named beside it', async (t) => {
  const { depositId } = await deposit(usdc('100'));
  const intent = await signal(depositId, usdc('10'));
  const other = await signal(depositId, usdc('10'));
  const attestation = await attest(intent.intentHash, usdc('10'), paymentData(intent, 'venmo-named'));
  t.deepEqual(await revertOf(fulfil(attestation, other.intentHash)), { errorName: 'IntentHashMismatch', args: [other.intentHash, intent.intentHash] });
  await fulfil(attestation);
  t.is((await lockedDeposit(depositId)).locked, usdc('10'), 'the other intent is still locked');
});

test.serial('a proof needs as many distinct registered witnesses as the verifier asks, each counted once', async (t) => {
  const second = privateKeyToAccount(generatePrivateKey());
  const owner = chain.walletFor(chain.deployer);
  const manage = async (functionName: 'setWitness' | 'setMinWitnessSignatures', args: readonly unknown[]) =>
    chain.confirm(await owner.writeContract({ address: chain.verifier, abi: unifiedPaymentVerifierAbi, functionName, args } as never));
  await manage('setWitness', [second.address, true]);
  await manage('setMinWitnessSignatures', [2n]);
  try {
    const { depositId } = await deposit(usdc('100'));
    const intent = await signal(depositId, usdc('10'));
    const data = paymentData(intent, 'venmo-two-witnesses');
    const one = await witnessAttestation(chain, [witness], intent.intentHash, usdc('10'), data);
    t.deepEqual(await revertOf(fulfil(one)), { errorName: 'NotEnoughWitnesses', args: [1n, 2n] });
    const twice = await witnessAttestation(chain, [witness, witness], intent.intentHash, usdc('10'), data);
    t.deepEqual(await revertOf(fulfil(twice)), { errorName: 'DuplicateWitness', args: [witness.address] });
    const withStranger = await witnessAttestation(chain, [witness, impostor], intent.intentHash, usdc('10'), data);
    t.deepEqual(await revertOf(fulfil(withStranger)), { errorName: 'UnknownWitness', args: [impostor.address] });
    await fulfil(await witnessAttestation(chain, [second, witness], intent.intentHash, usdc('10'), data));
    t.is((await lockedDeposit(depositId)).locked, 0n);
  } finally {
    await manage('setMinWitnessSignatures', [1n]);
    await manage('setWitness', [second.address, false]);
  }
  t.deepEqual(
    await revertOf(
      chain.walletFor(stranger).writeContract({ address: chain.verifier, abi: unifiedPaymentVerifierAbi, functionName: 'setMinWitnessSignatures', args: [1n] }),
    ),
    { errorName: 'OwnableUnauthorizedAccount', args: [stranger.address] },
  );
});
