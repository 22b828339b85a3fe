/**
 * Remediation actions that fail on the local chain, end to end through HTTP: a recreate whose new
 * signal the maker's withdrawn deposit can no longer take (DISPATCH_FAILED), and an extend of an
 * intent signalled while the orchestrator had no intent guardian (UNSUPPORTED_INTENT_GUARDIAN).
 */
import test from 'ava';
import { parseEventLogs, zeroAddress, type Hex } from 'viem';
import { escrowAbi, orchestratorAbi, type LocalChain } from '../../indexer/chain/index.js';
import type { CheckoutPayment } from '../../machines/payment/index.js';
import { revertOf } from '../support/chain-revert.js';
import { answerOf } from '../support/checkout.js';
import { MAKER } from '../support/payment-flow.js';
import { untilOnClock } from '../support/real-time-poll.js';
import { paymentIdFor } from '../support/remediation.js';
import { actionOnce, FINAL_ACTION_STATUSES, liveRemediationNode, paymentOnce, signalledAttempt } from '../support/remediation-node.js';

const getIntent = (local: LocalChain, intentHash: Hex) =>
  local.publicClient.readContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'getIntent', args: [intentHash] });

/** Whether the orchestrator no longer holds the intent (it answers IntentNotFound). */
const intentEnded = async (local: LocalChain, intentHash: Hex) =>
  (await revertOf(getIntent(local, intentHash)).catch(() => null))?.errorName === 'IntentNotFound';

test('recreate after the maker withdrew the deposit: the new signal reverts, the attempt is FAILED again and the action FAILED DISPATCH_FAILED', async (t) => {
  const { gateway, events, merchant, depositId } = await liveRemediationNode(t);
  const { node } = gateway;
  const local = node.chain!.localChain!;
  const attempt = await signalledAttempt(gateway, merchant.liveKey, depositId, paymentIdFor('dispatch'));
  const firstIntent = attempt.awaiting.payment.railIdentifier as Hex;

  await node.system.askAt({ kind: 'payment', id: attempt.input.id }, { type: 'CANCEL', reason: 'CUSTOMER', at: new Date(gateway.clock.now()).toISOString() });
  await paymentOnce(gateway, attempt.input.id, (view) => view.status === 'CANCELLED', 'the cancel');
  // The intent's cancel mined returns its USDC to the deposit; withdrawing then takes everything and closes it.
  await untilOnClock(
    gateway.clock,
    () => intentEnded(local, firstIntent),
    (ended) => ended,
    'the intent to be cancelled on chain',
  );
  const withdrawn = await local.confirm(
    await local.walletFor(MAKER).writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'withdrawDeposit', args: [depositId] }),
  );
  t.deepEqual(
    parseEventLogs({ abi: escrowAbi, logs: withdrawn.logs, eventName: 'DepositClosed' }).map((log) => log.args.depositId),
    [depositId],
  );

  const accepted = await gateway.request('POST', attempt.path('recreate'), { key: merchant.liveKey, body: { idempotencyKey: 'recreate-dispatch-1' } });
  t.is(accepted.status, 202);
  const action = await actionOnce(gateway, merchant.liveKey, attempt.placed.id, accepted.body.responseObject.actionId, (status) =>
    FINAL_ACTION_STATUSES.includes(status),
  );
  t.is(action.status, 'FAILED', JSON.stringify(action));
  t.is(action.error.code, 'DISPATCH_FAILED');
  t.is(action.error.message, `the attempt could not be started on chain: signalIntent ended FAILED (DepositNotFound(${depositId}))`);
  t.is(action.result, null);
  t.like(action.payment, { status: 'FAILED', railIdentifier: null });

  const failed = await paymentOnce(gateway, attempt.input.id, (view) => view.status === 'FAILED', 'the reopened attempt to fail');
  t.is(failed.hosted.errorCode, 'SIGNAL_INTENT_FAILED');

  // Why it failed reaches the merchant: on the PAYMENT_FAILED webhook's payment and on its list rows, the code on neither (document 1).
  const why = `the attempt could not be started on chain: signalIntent ended FAILED (DepositNotFound(${depositId}))`;
  await node.system.effectsIdle();
  const failedEvent = events.find((event) => event.type === 'PAYMENT_FAILED' && event.actor.id === attempt.input.id);
  t.like(failedEvent?.data, { payment: { id: attempt.input.id, status: 'FAILED', errorCode: null, errorMessage: why } });
  const rows = async (path: string) => answerOf(await gateway.request('GET', path, { key: merchant.liveKey }), 200, path).payments as CheckoutPayment[];
  for (const path of ['/api/v1/merchants/me/payments', `/api/v1/merchants/me/orders/${attempt.placed.id}/payments`]) {
    t.like(
      (await rows(path)).find((row) => row.id === attempt.input.id),
      { status: 'FAILED', errorCode: null, errorMessage: why },
      path,
    );
  }
});

test('extend of an intent signalled with no intent guardian: FAILED UNSUPPORTED_INTENT_GUARDIAN, nothing sent, the attempt unchanged', async (t) => {
  const { gateway, merchant, depositId } = await liveRemediationNode(t);
  const local = gateway.node.chain!.localChain!;
  // As a chain whose orchestrator has no guardian: the intent records none when it is signalled.
  await local.confirm(
    await local
      .walletFor(local.deployer)
      .writeContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'setIntentGuardian', args: [zeroAddress] }),
  );
  const attempt = await signalledAttempt(gateway, merchant.liveKey, depositId, paymentIdFor('noguardian'));
  const intentHash = attempt.awaiting.payment.railIdentifier as Hex;
  const before = await getIntent(local, intentHash);

  const accepted = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey });
  t.is(accepted.status, 202);
  const action = await actionOnce(gateway, merchant.liveKey, attempt.placed.id, accepted.body.responseObject.actionId, (status) =>
    FINAL_ACTION_STATUSES.includes(status),
  );
  t.is(action.status, 'FAILED', JSON.stringify(action));
  t.deepEqual(action.error, {
    code: 'UNSUPPORTED_INTENT_GUARDIAN',
    message: 'the intent was signalled without an intent guardian this node sends for: it cannot be extended',
  });
  t.like(action.payment, { status: 'CREATED', railIdentifier: intentHash, quoteExpiresAt: attempt.awaiting.payment.quoteExpiresAt });
  t.is((await getIntent(local, intentHash)).expiryTime, before.expiryTime);
});
