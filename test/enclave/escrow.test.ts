/**
 * End to end on a real local chain: a maker's deposit, an intent signalled on it, the
 * buyer's fiat payment on the simulated platform, the service's attestation, and the
 * orchestrator releasing the locked USDC against it. The verifier is resolved from the
 * chain id, and the enclave's signer is the registered witness.
 */
import test from 'ava';
import { keccak256, parseEventLogs, parseUnits, toBytes, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ChainRegistry, paymentReference } from '../../enclave/index.js';
import { anvilTestAccount, escrowAbi, mockUSDCAbi, orchestratorAbi, protocolErrorsAbi, startLocalChain, type LocalChain } from '../../indexer/chain/index.js';
import { depositOn } from '../support/local-deposit.js';
import { acceptCurrency, signalOn } from '../support/local-intent.js';
import {
  CONVERSION_RATE,
  INTENT_AMOUNT,
  OWED_CENTS,
  TEST_NOW,
  isSignedPaymentAttestation,
  PLATFORM_FIXTURES,
  preparePayment,
  startTestEnclave,
  type TestEnclave,
  paymentUse,
} from '../support/enclave.js';

const maker = anvilTestAccount(2);
const taker = anvilTestAccount(3);
const relayer = anvilTestAccount(5);
const venmo = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'venmo')!;

let enclave: TestEnclave;
let chain: LocalChain;
let depositId: bigint;

test.before(async () => {
  const chains = new ChainRegistry();
  enclave = await startTestEnclave({ chains });
  chain = await startLocalChain({ witness: enclave.service.signer });
  chains.set(chain.chainId, { paymentVerifier: chain.verifier });

  const amount = parseUnits('500', 6);
  await chain.mintUsdc(maker.address, amount);
  ({ depositId } = await depositOn(chain, maker, amount, { range: { min: parseUnits('1', 6), max: parseUnits('100', 6) } }));
  const wallet = chain.walletFor(maker);
  await chain.confirm(
    await wallet.writeContract({
      address: chain.escrow,
      abi: escrowAbi,
      functionName: 'setPaymentMethod',
      args: [depositId, keccak256(toBytes('venmo')), keccak256(toBytes(venmo.payeeId))],
    }),
  );
  await acceptCurrency(chain, maker, depositId, keccak256(toBytes('venmo')), keccak256(toBytes('USD')), CONVERSION_RATE);
});

test.after.always(async () => {
  await chain?.stop();
  await enclave?.stop();
});

/** The service's paymentProof goes on chain as it is, in FulfillIntentParams. */
const fulfil = (paymentProof: Hex, intentHash: Hex) =>
  chain.walletFor(relayer).writeContract({
    address: chain.orchestrator,
    abi: [...orchestratorAbi, ...protocolErrorsAbi],
    functionName: 'fulfillIntent',
    args: [{ paymentProof, intentHash, verificationData: '0x', postIntentHookData: '0x' }],
  });

/** Signals an intent paying `to`, and the snapshot a client reads of it: the expiry from the escrow's lock, as the node reads it. */
async function signalIntent(to: Hex) {
  const receipt = await chain.confirm(
    await signalOn(chain, taker, {
      depositId,
      amount: INTENT_AMOUNT,
      to,
      paymentMethod: keccak256(toBytes('venmo')),
      fiatCurrency: keccak256(toBytes('USD')),
      conversionRate: CONVERSION_RATE,
    }),
  );
  const signaled = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' })[0]!.args;
  const locked = parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'FundsLocked' })[0]!.args;
  return {
    intentHash: signaled.intentHash,
    amount: signaled.amount.toString(),
    fiatCurrency: 'USD',
    payeeDetails: keccak256(toBytes(venmo.payeeId)),
    conversionRate: signaled.conversionRate.toString(),
    signalTimestamp: Number(signaled.timestamp),
    expiryTime: Number(locked.expiryTime),
  };
}

type SignalledIntent = Awaited<ReturnType<typeof signalIntent>>;

/** The buyer's Venmo proof on the local chain, sealed for `sealedFor`: the intent sent, unless a test lies about it. */
async function proveOnChain(prepared: ReturnType<typeof preparePayment>, intent: SignalledIntent, sealedFor: SignalledIntent = intent) {
  return enclave.post('/buyer/verify/venmo/transfer_venmo', {
    encryptedSessionMaterial: await enclave.seal(prepared.material, paymentUse(venmo, sealedFor, chain.chainId)),
    params: prepared.params,
    intent,
    chainId: chain.chainId,
  });
}

async function usdcOf(address: Hex): Promise<bigint> {
  return chain.publicClient.readContract({ address: chain.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [address] });
}

test.serial('an attestation from the service verifies with viem and releases the locked USDC on the local escrow', async (t) => {
  const buyer = privateKeyToAccount(generatePrivateKey()).address;
  const intent = await signalIntent(buyer);
  const prepared = preparePayment(enclave, venmo, { timestampMs: intent.signalTimestamp * 1000 + 90_000 });
  const { status, body } = await proveOnChain(prepared, intent);
  t.is(status, 200, JSON.stringify(body));
  const result = body.responseObject;
  t.is(result.domain.verifyingContract, chain.verifier);
  t.true(await isSignedPaymentAttestation(result, enclave.service.signer));

  const receipt = await chain.confirm(await fulfil(result.paymentProof, intent.intentHash));
  const fulfilled = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentFulfilled' })[0]!.args;
  t.like(fulfilled, { intentHash: intent.intentHash, fundsTransferredTo: buyer, amount: INTENT_AMOUNT, isManualRelease: false });
  t.is(await usdcOf(buyer), INTENT_AMOUNT);

  // The same proof cannot release funds twice, and its payment cannot be offered for another intent.
  await t.throwsAsync(fulfil(result.paymentProof, intent.intentHash), { message: /IntentNotFound/ });
  const second = await signalIntent(buyer);
  const replay = await proveOnChain(prepared, second);
  t.like(replay, { status: 409, body: { errorCode: 'PAYMENT_ID_ALREADY_USED' } });
});

test.serial('an attestation for another chain does not verify on this one', async (t) => {
  const buyer = privateKeyToAccount(generatePrivateKey()).address;
  const intent = await signalIntent(buyer);
  enclave.chains.set(8453, { paymentVerifier: chain.verifier });
  const prepared = preparePayment(enclave, venmo, { timestampMs: intent.signalTimestamp * 1000 + 90_000 });
  const { body } = await enclave.post('/buyer/verify/venmo/transfer_venmo', {
    encryptedSessionMaterial: await enclave.seal(prepared.material, paymentUse(venmo, intent)),
    params: prepared.params,
    intent,
    chainId: 8453,
  });
  await t.throwsAsync(fulfil(body.responseObject.paymentProof, intent.intentHash), { message: /UnknownWitness/ });
  t.is(await usdcOf(buyer), 0n);
});

test.serial('a snapshot that lies to the enclave is attested, and then refused on chain', async (t) => {
  const buyer = privateKeyToAccount(generatePrivateKey()).address;
  const intent = await signalIntent(buyer);
  // The buyer pays themselves and tells the enclave the intent's payee is their own account.
  const prepared = preparePayment(enclave, venmo, { timestampMs: intent.signalTimestamp * 1000 + 90_000, payee: '999000999' });
  const { status, body } = await proveOnChain(prepared, { ...intent, payeeDetails: keccak256(toBytes('999000999')) }, intent);
  t.is(status, 200);
  await t.throwsAsync(fulfil(body.responseObject.paymentProof, intent.intentHash), { message: /SnapshotMismatch[\s\S]*payeeDetails/ });
  t.is(await usdcOf(buyer), 0n);
});

test.serial('a buyer who paid after the expiry and tells the enclave a later one is attested, and then refused on chain', async (t) => {
  const buyer = privateKeyToAccount(generatePrivateKey()).address;
  const intent = await signalIntent(buyer);
  const prepared = preparePayment(enclave, venmo, { timestampMs: (intent.expiryTime + 3_600) * 1000 });
  const told = await proveOnChain(prepared, intent);
  t.like(told, { status: 422, body: { errorCode: 'PAYMENT_AFTER_INTENT' } });
  const lie = await proveOnChain(prepared, { ...intent, expiryTime: intent.expiryTime + 7_200 }, intent);
  t.is(lie.status, 200, JSON.stringify(lie.body));
  await t.throwsAsync(fulfil(lie.body.responseObject.paymentProof, intent.intentHash), { message: /SnapshotMismatch[\s\S]*expiryTime/ });
  t.is(await usdcOf(buyer), 0n);
});

test.serial('a payment made inside the window and proved after the intent expired still releases the USDC', async (t) => {
  const buyer = privateKeyToAccount(generatePrivateKey()).address;
  const intent = await signalIntent(buyer);
  const prepared = preparePayment(enclave, venmo, { timestampMs: intent.signalTimestamp * 1000 + 90_000 });
  // The chain's clock runs past the expiry; nobody has cancelled the intent yet.
  await chain.advanceTime(intent.expiryTime - intent.signalTimestamp + 600);
  const { status, body } = await proveOnChain(prepared, intent);
  t.is(status, 200, JSON.stringify(body));
  const receipt = await chain.confirm(await fulfil(body.responseObject.paymentProof, intent.intentHash));
  t.true((await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber })).timestamp > BigInt(intent.expiryTime));
  t.like(parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentFulfilled' })[0]!.args, {
    intentHash: intent.intentHash,
    fundsTransferredTo: buyer,
    amount: INTENT_AMOUNT,
  });
  t.is(await usdcOf(buyer), INTENT_AMOUNT);
});

test.serial("the seller path: the maker's kept session attests the payment it received, and the orchestrator releases the USDC against it", async (t) => {
  const owner = privateKeyToAccount(generatePrivateKey());
  const makerSession = enclave.simulator.openSession('venmo', { id: venmo.payeeId, username: 'maker' });
  const kept = await enclave.post('/seller/credentials/venmo', {
    encryptedSessionMaterial: await enclave.seal(makerSession, { purpose: 'seller', platform: 'venmo', callerAddress: owner.address }),
    callerAddress: owner.address,
    payeeDetails: keccak256(toBytes(venmo.payeeId)),
    expiresAt: Math.floor(TEST_NOW / 1000) + 86_400,
  });
  t.is(kept.status, 201, JSON.stringify(kept.body));

  const buyer = privateKeyToAccount(generatePrivateKey()).address;
  const intent = await signalIntent(buyer);
  // The buyer pays from their own Venmo with the checkout's memo; the maker's session is what sees it.
  const paymentId = venmo.paymentId();
  enclave.simulator.recordPayment('venmo', makerSession, {
    paymentId,
    amount: OWED_CENTS,
    currency: 'USD',
    payee: venmo.payeeRaw,
    payer: '7777000111',
    direction: 'incoming',
    timestampMs: intent.signalTimestamp * 1000 + 90_000,
    status: 'completed',
    note: paymentReference(intent.intentHash),
  });
  const { status, body } = await enclave.post('/seller/verify/venmo/transfer_venmo', { params: { PAYMENT_ID: paymentId }, intent, chainId: chain.chainId });
  t.is(status, 200, JSON.stringify(body));
  t.is(body.responseObject.metadata.source, 'seller-tee');

  const receipt = await chain.confirm(await fulfil(body.responseObject.paymentProof, intent.intentHash));
  const fulfilled = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentFulfilled' })[0]!.args;
  t.like(fulfilled, { intentHash: intent.intentHash, fundsTransferredTo: buyer, amount: INTENT_AMOUNT, isManualRelease: false });
  t.is(await usdcOf(buyer), INTENT_AMOUNT);
});
