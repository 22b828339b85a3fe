/**
 * A payout on a test node with the local chain (startTestGateway with the indexer and the
 * attestation service): a live merchant with document 2's worked payout settings, a payout
 * funded in USDC through the local conversion provider and read FUNDED, and its customer's
 * checkout: calls with the link's token, and a sign-in with the code the node's mail catcher
 * caught.
 */
import { answerOf } from './checkout.js';
import type { ApiResponse, TestGateway } from './gateway.js';
import { USDC_ON_BASE, WORKED_PAYOUT_SETTINGS, payoutBody } from './payout-fakes.js';
import { untilOnClock } from './real-time-poll.js';

export interface LocalPayout {
  merchant: Awaited<ReturnType<TestGateway['createMerchant']>>;
  /** The create's answer (CreatePayoutResponse). */
  created: any;
  /** The merchant's read of the payout. */
  read(): Promise<any>;
  checkout(method: string, path?: string, body?: unknown, login?: string): Promise<ApiResponse>;
  /** Asks for a code, reads it from the node's mail catcher, signs in: the login token. */
  signIn(): Promise<string>;
}

/** `methods`: the merchant's payout methods, document 2's worked ones (every fiat rail and USDC on Base) unless given. */
export async function fundedLocalPayout(
  gateway: TestGateway,
  idempotencyKey: string,
  customerEmail = 'ana@example.com',
  methods: readonly string[] = WORKED_PAYOUT_SETTINGS.methods,
): Promise<LocalPayout> {
  const { node } = gateway;
  const merchant = await gateway.createMerchant();
  answerOf(
    await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { payouts: { ...WORKED_PAYOUT_SETTINGS, methods } }),
    200,
    'payout settings',
  );
  const created = answerOf(
    await gateway.request('POST', '/api/v1/payouts', {
      key: merchant.liveKey,
      body: payoutBody({ customerEmail }),
      headers: { 'idempotency-key': idempotencyKey },
    }),
    201,
    'the create',
  );
  await node.conversions.simulator!.sendFromWallet({
    depositAddress: created.funding.depositAddress,
    chainId: 8453,
    tokenAddress: USDC_ON_BASE,
    amount: created.funding.amount,
  });
  const read = async () => answerOf(await gateway.request('GET', `/api/v1/payouts/${created.payoutId}`, { key: merchant.liveKey }), 200, 'the read');
  await untilOnClock(gateway.clock, read, (payout) => payout.status === 'FUNDED', 'the payout funded');
  const token = new URL(created.checkoutUrl).searchParams.get('token')!;
  const checkout: LocalPayout['checkout'] = (method, path = '', body, login) =>
    gateway.request(method, `/api/v1/cashout-checkout/${created.payoutId}${path}`, {
      headers: { 'x-cashout-token': token, ...(login ? { authorization: `Bearer ${login}` } : {}) },
      ...(body === undefined ? {} : { body }),
    });
  return {
    merchant,
    created,
    read,
    checkout,
    async signIn() {
      answerOf(await checkout('POST', '/sign-in/code'), 202, 'the code');
      const mailed = node.mail.inbox!.messages().find((message) => message.to.includes(customerEmail))!;
      const code = /\b(\d{6})\b/.exec(mailed.subject)![1]!;
      return answerOf(await checkout('POST', '/sign-in', { code }), 200, 'the sign-in').loginToken;
    },
  };
}
