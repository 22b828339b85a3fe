/**
 * The escrow's chargebacks on a real anvil (docs/chargebacks.md): makers stake, the dispute arbiter
 * has a maker's stake compensate a settled intent of a protected deposit, once per intent and once
 * per dispute, up to what the intent released, paying what the stake holds when it is short; and
 * the indexer decodes the record into a fact filed under the deposit and the intent. Serial: one
 * chain, its nonces and its clock.
 */
import test from 'ava';
import { keccak256, parseEventLogs, parseUnits, stringToHex, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  LOCAL_RELAYER_INDEX,
  anvilTestAccount,
  escrowAbi,
  mockUSDCAbi,
  orchestratorAbi,
  startLocalChain,
  type LocalChain,
} from '../../../indexer/chain/index.js';
import { decodeProtocolLog } from '../../../indexer/events.js';
import { subjectsOf } from '../../../proto/fact-subjects.js';
import { ChainFact } from '../../../proto/gen/peer/indexer/v1/indexer.js';
import { revertOf } from '../../support/chain-revert.js';
import { fulfilOn, paymentEvidence, witnessAttestation } from '../../support/local-attestation.js';
import { depositOn } from '../../support/local-deposit.js';
import { acceptCurrency, signalOn } from '../../support/local-intent.js';

const usdc = (amount: string): bigint => parseUnits(amount, 6);
const RATE = parseUnits('1.02', 18);
const VENMO = keccak256(stringToHex('venmo'));
const USD = keccak256(stringToHex('USD'));
const MAKER_PAYEE = keccak256(stringToHex('maker-id'));

const witness = privateKeyToAccount(generatePrivateKey());
const maker = anvilTestAccount(2);
const taker = anvilTestAccount(3);
const payee = anvilTestAccount(4);
const stranger = anvilTestAccount(5);
const arbiter = anvilTestAccount(LOCAL_RELAYER_INDEX);

let chain: LocalChain;

test.before(async () => {
  chain = await startLocalChain({ witness: witness.address });
});

test.after.always(async () => {
  await chain?.stop();
});

const balanceOf = (account: Address) => chain.publicClient.readContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [account] });
const stakeOf = (account: Address) => chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'stakeOf', args: [account] });
const escrowCall = (account: typeof maker, functionName: string, args: readonly unknown[]) =>
  chain.walletFor(account).writeContract({ address: chain.escrow, abi: escrowAbi, functionName, args } as never);
const compensate = (intentHash: Hash, disputeId: string, amount: bigint, account = arbiter) =>
  escrowCall(account, 'compensateChargeback', [intentHash, disputeId, amount]);

async function deposit(amount: bigint, protectedDeposit: boolean): Promise<bigint> {
  await chain.mintUsdc(maker.address, amount);
  const { depositId } = await depositOn(chain, maker, amount, { range: { min: 1n, max: amount } });
  await chain.confirm(await escrowCall(maker, 'setPaymentMethod', [depositId, VENMO, MAKER_PAYEE]));
  await acceptCurrency(chain, maker, depositId, VENMO, USD, RATE);
  if (protectedDeposit) await chain.confirm(await escrowCall(maker, 'setDisputeProtectionEnabled', [depositId, true]));
  return depositId;
}

let payments = 0;

/** An intent of `amount` on the deposit, signalled and fulfilled in full. */
async function settled(depositId: bigint, amount: bigint): Promise<Hash> {
  const receipt = await chain.confirm(
    await signalOn(chain, taker, { depositId, amount, to: payee.address, paymentMethod: VENMO, fiatCurrency: USD, conversionRate: RATE }),
  );
  const [signaled] = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' });
  const intent = { intentHash: signaled!.args.intentHash, timestamp: signaled!.args.timestamp };
  const evidence = paymentEvidence(
    { ...intent, amount, paymentMethod: VENMO, fiatCurrency: USD, payeeDetails: MAKER_PAYEE, conversionRate: RATE },
    `payment-${payments++}`,
  );
  await chain.confirm(await fulfilOn(chain, stranger, await witnessAttestation(chain, [witness], intent.intentHash, amount, evidence)));
  return intent.intentHash;
}

async function stake(amount: bigint): Promise<void> {
  await chain.mintUsdc(maker.address, amount);
  await chain.confirm(
    await chain.walletFor(maker).writeContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [chain.escrow, amount] }),
  );
  await chain.confirm(await escrowCall(maker, 'stake', [amount]));
}

test.serial('only the dispute arbiter records a chargeback, only on a settled intent of a deposit that had dispute protection', async (t) => {
  const unprotected = await settled(await deposit(usdc('50'), false), usdc('10'));
  await stake(usdc('20'));
  t.deepEqual(await revertOf(compensate(unprotected, 'dsp_a', usdc('1'))), { errorName: 'DepositNotProtected', args: [unprotected] });
  const never = keccak256(stringToHex('never signalled'));
  t.deepEqual(await revertOf(compensate(never, 'dsp_a', usdc('1'))), { errorName: 'IntentNotSettled', args: [never] });
  const protectedIntent = await settled(await deposit(usdc('50'), true), usdc('10'));
  t.deepEqual(await revertOf(compensate(protectedIntent, 'dsp_a', usdc('1'), stranger)), { errorName: 'UnauthorizedCaller', args: [stranger.address] });
  t.deepEqual(await revertOf(compensate(protectedIntent, 'dsp_a', usdc('10') + 1n)), {
    errorName: 'ClaimExceedsSettlement',
    args: [usdc('10') + 1n, usdc('10')],
  });
  t.deepEqual(await revertOf(compensate(protectedIntent, 'dsp_a', 0n)), { errorName: 'ZeroValue', args: [] });
  // Staking and withdrawing are the maker's own.
  t.deepEqual(await revertOf(escrowCall(stranger, 'withdrawStake', [1n])), { errorName: 'InsufficientStake', args: [0n, 1n] });
  await chain.confirm(await escrowCall(maker, 'withdrawStake', [await stakeOf(maker.address)]));
  t.is(await stakeOf(maker.address), 0n);
  t.deepEqual(await revertOf(compensate(protectedIntent, 'dsp_a', usdc('1'))), { errorName: 'StakeExhausted', args: [maker.address] });
});

test.serial(
  'the stake compensates what it holds, once per intent and once per dispute; the record decodes into a fact about the deposit and the intent',
  async (t) => {
    const depositId = await deposit(usdc('50'), true);
    const intentHash = await settled(depositId, usdc('10'));
    const other = await settled(depositId, usdc('5'));
    // Protection switched off after settlement does not take it back: it was on when the payment settled.
    await chain.confirm(await escrowCall(maker, 'setDisputeProtectionEnabled', [depositId, false]));
    await stake(usdc('4'));
    const recipient = (await chain.publicClient.readContract({ address: chain.escrow, abi: escrowAbi, functionName: 'chargebackRecipient' })) as Address;
    const before = await balanceOf(recipient);

    const receipt = await chain.confirm(await compensate(intentHash, 'dsp_short', usdc('10')));
    t.is((await balanceOf(recipient)) - before, usdc('4'), 'a short stake pays what it holds');
    t.is(await stakeOf(maker.address), 0n);
    const log = receipt.logs.find((entry) => entry.address.toLowerCase() === chain.escrow.toLowerCase())!;
    const event = decodeProtocolLog(log);
    t.deepEqual(event, {
      $case: 'chargebackCompensated',
      value: {
        intentHash,
        disputeId: 'dsp_short',
        depositId: depositId.toString(),
        maker: maker.address,
        claimedAmount: usdc('10').toString(),
        compensatedAmount: usdc('4').toString(),
        recipient,
      },
    });
    t.deepEqual(subjectsOf(ChainFact.fromPartial({ event: event! })), [{ depositId: depositId.toString() }, { intentHash }]);

    await stake(usdc('20'));
    t.deepEqual(await revertOf(compensate(intentHash, 'dsp_again', usdc('1'))), { errorName: 'ChargebackAlreadyCompensated', args: [intentHash] });
    t.deepEqual(await revertOf(compensate(other, 'dsp_short', usdc('1'))), { errorName: 'DisputeAlreadyCompensated', args: ['dsp_short'] });
    await chain.confirm(await compensate(other, 'dsp_other', usdc('5')));
    t.is(await stakeOf(maker.address), usdc('15'));
  },
);
