/**
 * The node's intent port over a local chain, for extensions: what it reads of an open intent and
 * of the guardian that must extend it, the call it builds, and the document's code for each way
 * the orchestrator refuses one, which the port's refusal names before anything is sent. A chain
 * kept from before extensions answers "unsupported" rather than failing.
 */
import test from 'ava';
import { erc20Abi, maxUint256, zeroAddress, type Hex } from 'viem';
import { extensionRefusal } from '../../../../actors/adapters/chain/intent-extension.js';
import type { IntentOnChain } from '../../../../actors/adapters/chain/intent-port.js';
import { ViemIntents } from '../../../../actors/adapters/chain/viem-intents.js';
import { ViemRelayerChain } from '../../../../actors/adapters/chain/viem-relayer-chain.js';
import {
  DEFAULT_INTENT_EXPIRATION_SECONDS,
  LOCAL_EXTENSION_FEE,
  LOCAL_EXTENSION_TOKEN_MINTED,
  LOCAL_GATING_SERVICE_INDEX,
  LOCAL_INTENT_GUARDIAN_INDEX,
  anvilTestAccount,
  escrowAbi,
  orchestratorAbi,
  protocolErrorsAbi,
  startLocalChain,
  type LocalChain,
} from '../../../../indexer/chain/index.js';
import type { PaymentChain } from '../../../../machines/payment/index.js';
import { RATE, venmoDeposit } from '../../../support/payment-flow.js';
import { preExtensionOrchestratorBytecode } from '../../../support/pre-extension-orchestrator.js';

const DAY = 24 * 60 * 60;
const guardian = anvilTestAccount(LOCAL_INTENT_GUARDIAN_INDEX);
const stranger = anvilTestAccount(5);

const portOver = (local: LocalChain, wallets: readonly Hex[] = [guardian.address]) =>
  new ViemIntents({ client: local.publicClient as never, wallets, gatingSigner: anvilTestAccount(LOCAL_GATING_SERVICE_INDEX), feeRecipient: null });

const paymentChain = (local: LocalChain, orchestrator: Hex = local.orchestrator): PaymentChain => ({
  chainId: local.chainId,
  escrow: local.escrow,
  orchestrator,
});

/** Signals a 10 USDC intent through the port from the guardian's wallet, as the payment flow does; its hash. */
async function signalled(local: LocalChain, chain: PaymentChain, intents: ViemIntents, depositId: bigint): Promise<Hex> {
  const terms = { depositId, amount: 10_000_000n, to: stranger.address, paymentMethod: 'venmo', fiatCurrency: 'USD', conversionRate: RATE, platformFeeBps: 0 };
  const hash = await local.walletFor(guardian).sendTransaction(await intents.signalCall(chain, guardian.address, terms));
  await local.confirm(hash);
  return (await intents.signalledIntent(hash)).intentHash;
}

/** What the chain answers to the extension sent from `from` now, as the relayer reads it: the code of its revert, or null when it would go through. */
async function chainVerdict(local: LocalChain, intents: ViemIntents, chain: PaymentChain, intentHash: Hex, seconds: number, from: Hex = guardian.address) {
  const relayer = new ViemRelayerChain(local.chainId, { client: local.publicClient, accounts: [guardian], errorAbi: protocolErrorsAbi });
  const estimate = await relayer.estimateGas({ ...intents.extendCall(chain, intentHash, seconds), from, value: 0n });
  return 'revert' in estimate ? intents.extensionRevertCode(estimate.revert.data) : null;
}

async function chainNow(local: LocalChain): Promise<number> {
  return Number((await local.publicClient.getBlock()).timestamp);
}

test('an open intent reads with its guardian; the guardian’s wallet and fee are ready; extending moves its expiry a day', async (t) => {
  const local = await startLocalChain();
  t.teardown(() => local.stop());
  const intents = portOver(local);
  const chain = paymentChain(local);
  const intentHash = await signalled(local, chain, intents, await venmoDeposit(local));

  const intent = await intents.intentOnChain(chain, intentHash);
  const signalledAt = intent!.timestamp;
  t.deepEqual(intent, { timestamp: signalledAt, expiryTime: signalledAt + Number(DEFAULT_INTENT_EXPIRATION_SECONDS), guardian: guardian.address });
  const token = await local.publicClient.readContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'extensionToken' });
  const readiness = await intents.extensionReadiness(chain, intent!);
  t.deepEqual(readiness, { from: guardian.address, token, fee: LOCAL_EXTENSION_FEE, balance: LOCAL_EXTENSION_TOKEN_MINTED, allowance: maxUint256 });
  t.is(extensionRefusal(intent, readiness, DAY, await chainNow(local)), null);
  t.is(await chainVerdict(local, intents, chain, intentHash, DAY), null);

  await local.confirm(await local.walletFor(guardian).sendTransaction({ ...intents.extendCall(chain, intentHash, DAY), account: guardian }));
  const extended = await intents.intentOnChain(chain, intentHash);
  t.is(extended!.expiryTime, intent!.expiryTime + DAY);
  t.is(await intents.intentExpiry(chain, intentHash), intent!.expiryTime + DAY);
  t.is(
    await local.publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [guardian.address] }),
    LOCAL_EXTENSION_TOKEN_MINTED - LOCAL_EXTENSION_FEE,
  );

  await local.confirm(await local.walletFor(guardian).sendTransaction({ ...intents.cancelCall(chain, intentHash), account: guardian }));
  t.is(await intents.intentOnChain(chain, intentHash), null, 'an ended intent no longer exists');
  t.is(extensionRefusal(null, readiness, DAY, await chainNow(local)), 'PAYMENT_NOT_OPEN');
  t.is(await chainVerdict(local, intents, chain, intentHash, DAY), 'PAYMENT_NOT_OPEN');
});

test('each refusal the port names before sending is the code the orchestrator’s revert decodes to', async (t) => {
  const local = await startLocalChain();
  t.teardown(() => local.stop());
  const intents = portOver(local);
  const chain = paymentChain(local);
  const depositId = await venmoDeposit(local);
  const intentHash = await signalled(local, chain, intents, depositId);
  const intent = (await intents.intentOnChain(chain, intentHash))!;
  const both = async (seconds: number, onChain: IntentOnChain = intent, port: ViemIntents = intents) => [
    extensionRefusal(onChain, await port.extensionReadiness(chain, onChain), seconds, await chainNow(local)),
    await chainVerdict(local, intents, chain, intentHash, seconds, (await port.extensionReadiness(chain, onChain)).from ?? stranger.address),
  ];

  const lifetimeLeft = intent.timestamp + 5 * DAY - intent.expiryTime;
  t.deepEqual(await both(lifetimeLeft + 1), ['FIVE_DAY_LIFETIME_EXCEEDED', 'FIVE_DAY_LIFETIME_EXCEEDED']);
  t.deepEqual(await both(lifetimeLeft), [null, null]);

  // A node whose relayer does not hold the guardian's key cannot send the extension: the orchestrator takes it from nobody else.
  t.deepEqual(await both(DAY, intent, portOver(local, [stranger.address])), ['UNSUPPORTED_INTENT_GUARDIAN', 'UNSUPPORTED_INTENT_GUARDIAN']);

  const token = (await intents.extensionReadiness(chain, intent)).token!;
  await local.confirm(
    await local.walletFor(guardian).writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [local.orchestrator, 0n] }),
  );
  t.deepEqual(await both(DAY), ['INSUFFICIENT_EXTENSION_TOKEN_BALANCE', 'INSUFFICIENT_EXTENSION_TOKEN_BALANCE']);
  t.like(await intents.extensionReadiness(chain, intent), { allowance: 0n, balance: LOCAL_EXTENSION_TOKEN_MINTED });

  await local.advanceTime(Number(DEFAULT_INTENT_EXPIRATION_SECONDS));
  t.deepEqual(await both(DAY), ['INTENT_ALREADY_EXPIRED', 'INTENT_ALREADY_EXPIRED']);

  // An intent signalled while no guardian was set cannot be extended by anyone.
  await local.confirm(
    await local
      .walletFor(local.deployer)
      .writeContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'setIntentGuardian', args: [zeroAddress] }),
  );
  const unguarded = await signalled(local, chain, intents, depositId);
  const unguardedOnChain = (await intents.intentOnChain(chain, unguarded))!;
  t.is(unguardedOnChain.guardian, null);
  t.is(
    extensionRefusal(unguardedOnChain, await intents.extensionReadiness(chain, unguardedOnChain), DAY, await chainNow(local)),
    'UNSUPPORTED_INTENT_GUARDIAN',
  );
  t.is(await chainVerdict(local, intents, chain, unguarded, DAY), 'UNSUPPORTED_INTENT_GUARDIAN');

  t.is(await chainVerdict(local, intents, chain, unguarded, 0), 'UNSUPPORTED_INTENT_GUARDIAN', 'the guardian is checked before the time added');
  t.is(intents.extensionRevertCode(null), 'INTENT_EXTENSION_TRANSACTION_REVERTED');
  t.is(
    intents.extensionRevertCode('0x4e487b710000000000000000000000000000000000000000000000000000000000000011'),
    'INTENT_EXTENSION_TRANSACTION_REVERTED',
    'a panic',
  );
});

test('an orchestrator from before extensions (a chain kept since) reads as unsupported, and an extension sent anyway reverts plainly', async (t) => {
  const local = await startLocalChain();
  t.teardown(() => local.stop());
  const deployer = local.walletFor(local.deployer);
  const deployed = await local.confirm(
    await deployer.deployContract({
      abi: orchestratorAbi,
      bytecode: preExtensionOrchestratorBytecode,
      args: [local.deployer.address, local.escrow, local.verifier, DEFAULT_INTENT_EXPIRATION_SECONDS, anvilTestAccount(LOCAL_GATING_SERVICE_INDEX).address],
    }),
  );
  const old = deployed.contractAddress!;
  await local.confirm(await deployer.writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'setOrchestrator', args: [old] }));
  const intents = portOver(local);
  const chain = paymentChain(local, old);
  const intentHash = await signalled(local, chain, intents, await venmoDeposit(local));

  const intent = await intents.intentOnChain(chain, intentHash);
  t.like(intent, { guardian: null });
  t.is(await intents.intentExpiry(chain, intentHash), intent!.expiryTime);
  const readiness = await intents.extensionReadiness(chain, intent!);
  t.deepEqual(readiness, { from: null, token: null, fee: 0n, balance: 0n, allowance: 0n });
  t.is(extensionRefusal(intent, readiness, DAY, await chainNow(local)), 'UNSUPPORTED_INTENT_GUARDIAN');
  t.is(await chainVerdict(local, intents, chain, intentHash, DAY), 'INTENT_EXTENSION_TRANSACTION_REVERTED');
});
