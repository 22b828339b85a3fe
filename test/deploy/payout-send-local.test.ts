/**
 * A payout sent to the customer's own address in USDC on Base, end to end on the local chain:
 * funded through the local provider, the customer signs in with the mailed code, saves a
 * routea_8453 USDC destination and confirms; the payout signer's batch sends the 100 USDC from
 * the customer's wallet, and the payout is SETTLED with payoutTransfer (provider null, txHash
 * the Base transfer) and the settlement's sentAmount and sentTo. A payout above the signer's
 * 1,000 USDC cap per transfer is out of reach here (payouts are at most 1,000 USDC), so one
 * transfer carries it.
 */
import test from 'ava';
import { erc20Abi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { answerOf, recordEvents } from '../support/checkout.js';
import { startTestGateway } from '../support/gateway.js';
import { untilOnClock } from '../support/real-time-poll.js';
import { USDC_ON_BASE } from '../support/payout-fakes.js';
import { fundedLocalPayout } from '../support/local-payout.js';

test('a payout confirmed to an address in USDC on Base is sent from the customer’s wallet and SETTLED with its payoutTransfer', async (t) => {
  t.timeout(120_000);
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, PAYOUT_FUNDING_POLL_MS: 1_000 });
  t.teardown(() => gateway.stop());
  const { node } = gateway;
  const events = await recordEvents(gateway);
  const { created, read, checkout, signIn } = await fundedLocalPayout(gateway, 'send-local-1');
  const loginToken = await signIn();
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const ready = answerOf(
    await checkout('PUT', '/method', { rail: 'routea_8453', tokenAddress: USDC_ON_BASE, address: destination.toLowerCase() }, loginToken),
    200,
    'the method',
  );
  t.like(ready, { payout: { status: 'READY' }, actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'], method: { destination: { address: destination } } });
  answerOf(await checkout('POST', '/confirm', undefined, loginToken), 200, 'the confirm');
  const settled = await untilOnClock(gateway.clock, read, (payout) => payout.status === 'SETTLED' || payout.attempt?.status === 'FAILED', 'SETTLED');
  t.like(settled, {
    status: 'SETTLED',
    attempt: { kind: 'CRYPTO', rail: 'routea_8453', status: 'SETTLED' },
    settlement: { buyerPaidAmount: '0.00', sentAmount: '100.00', sentTo: destination.toLowerCase(), returnedAmount: '0.00' },
    payoutTransfer: { chainId: 8453, tokenAddress: USDC_ON_BASE, decimals: 6, address: destination, amount: '100', provider: null },
  });
  t.is(settled.payoutTransfer.txHash, settled.payoutTransfer.usdcTxHash);
  const local = node.chain!.localChain!;
  t.is(await local.publicClient.readContract({ address: local.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [destination] }), 100_000_000n);
  t.deepEqual(
    (await events.typesOf(created.payoutId)).filter((type) => type.startsWith('PAYOUT_ORDER_')),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_FUNDED', 'PAYOUT_ORDER_SETTLED'],
  );
});
