/**
 * Remediation end to end on an embedded node with its local chain (indexer and attestation
 * service in-process): a PRO merchant, the maker's Venmo deposit, a live attempt waited on until
 * its intent is signalled, and polls of the attempt's view and of an action through the API.
 */
import type { ExecutionContext } from 'ava';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { DomainEvent } from '../../actors/index.js';
import type { PaymentView } from '../../actors/kinds/payment-kind.js';
import { startTestGateway, type TestGateway } from './gateway.js';
import { attemptInput, venmoDeposit } from './payment-flow.js';
import { untilOnClock } from './real-time-poll.js';

export const FINAL_ACTION_STATUSES = ['SUCCEEDED', 'FAILED', 'BLOCKED'];

/** The node, every domain event it publishes from its start, a PRO merchant and the maker's Venmo deposit. */
export async function liveRemediationNode(t: ExecutionContext) {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20 });
  t.teardown(() => gateway.stop());
  const events: DomainEvent[] = [];
  await gateway.node.bus.consume({ durable: 'remediation-events' }, async (event) => void events.push(event));
  const merchant = await gateway.createMerchant({ name: 'Pro', tier: 'PRO', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
  const depositId = await venmoDeposit(gateway.node.chain!.localChain!);
  return { gateway, events, merchant, depositId };
}

/**
 * A live 25 USDC Venmo attempt on a new order, as the gateway makes one, waited on until its intent
 * is signalled. `sellerRelease`: the maker's deposit offered automated release when quoted (the test
 * keeps the maker's session for the seller path).
 */
export async function signalledAttempt(gateway: TestGateway, liveKey: string, depositId: bigint, id: string, options: { sellerRelease?: boolean } = {}) {
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const created = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '25', destinationAddress: destination } });
  const placed = created.body.responseObject.order as { id: string; merchantId: string };
  const input = attemptInput({
    id,
    orderId: placed.id,
    merchantId: placed.merchantId,
    owedUsdc: 25_000_000n,
    destination,
    depositId,
    chain: gateway.node.payments.chain,
    fees: gateway.node.payments.fees,
    at: new Date(gateway.clock.now()).toISOString(),
  });
  input.quote.sellerAutomatedRelease = options.sellerRelease ?? false;
  await gateway.node.system.askAt({ kind: 'payment', id }, { type: 'CREATE', ...input });
  const awaiting = await paymentOnce(gateway, id, (view) => view.step === 'AWAITING_PAYMENT', 'the intent to be signalled');
  return { placed, input, destination, awaiting, path: (suffix: string) => `/api/v1/merchants/me/orders/${placed.id}/payments/${id}/${suffix}` };
}

export const paymentOnce = (gateway: TestGateway, id: string, done: (view: PaymentView) => boolean, what: string) =>
  untilOnClock(gateway.clock, async () => (await gateway.node.system.documents('payment').findOne({ _id: id }))?.view as unknown as PaymentView, done, what);

/** The action as the merchant polls it, once `done` holds for its status. */
export const actionOnce = (gateway: TestGateway, key: string, orderId: string, actionId: string, done: (status: string) => boolean) =>
  untilOnClock(
    gateway.clock,
    async () => (await gateway.request('GET', `/api/v1/merchants/me/orders/${orderId}/actions/${actionId}`, { key })).body.responseObject,
    (action) => done(action.status),
    `action ${actionId} to finish`,
  );
