/**
 * What a development node serves and a production one never mounts: POST /dev/demo-order,
 * which the landing page's "Try a checkout" button calls (demo-orders.ts);
 * POST /dev/local-wallet/transfers, which funds a payout by hand from the local test wallet
 * (local-wallet.ts); and GET /dev/mail and its list, the mail the node caught (mail-operations.ts).
 */
import { statusOfCode } from '../../actors/errors/error-codes.js';
import { ApiError, reply } from '../envelope.js';
import { z } from 'zod';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { demoOrderResult } from '../schemas/dev-resources.js';
import { DEMO_MERCHANT_NOT_FOUND, type DemoOrders } from './demo-orders.js';
import { LOCAL_WALLET_REFUSED, LOCAL_WALLET_UNAVAILABLE, localWalletSent, localWalletTransfer, type LocalWallet } from './local-wallet.js';
import { mailOperations, type MailDependencies } from './mail-operations.js';

export interface DevDependencies extends MailDependencies {
  demoOrders: DemoOrders;
  /** The local test wallet; null on a node without the local conversion provider. */
  localWallet: LocalWallet | null;
}

export function devOperations(): Operation<DevDependencies>[] {
  return [demoOrderOperation, localWalletOperation, ...mailOperations()];
}

const demoOrderOperation = defineOperation({
  method: 'post',
  path: '/dev/demo-order',
  operationId: 'createDemoOrder',
  tags: ['Development'],
  summary: 'Make a demo order (development only)',
  description:
    'A 25.00 USD order for the demo merchant `npm start` opens on a new data folder, made as POST /api/v1/orders makes it with that merchant’s live key, with its checkout link. The landing page’s “Try a checkout” button calls it. No body. Development nodes only: it is not mounted in production.',
  guard: 'none',
  answers: standardAnswers(
    {
      '201': success(201, demoOrderResult, 'The order, its token and its checkout link'),
      '400': failure(400, [{ code: 'DESTINATION_REQUIRED', when: 'the demo merchant’s wallet was taken off its profile' }]),
      '403': failure(403, [{ code: 'TIER_REQUIRED', when: 'the demo merchant’s plan was taken off' }]),
      '404': failure(404, [DEMO_MERCHANT_NOT_FOUND]),
    },
    { asksActors: true, unavailable: [{ code: 'RATE_UNAVAILABLE', when: 'the USD rate is stale and the rate source cannot be reached; retry shortly' }] },
  ),
  handle: (deps: DevDependencies) => async (ctx) => {
    reply(ctx, 201, 'Demo order created', demoOrderResult, await deps.demoOrders.create());
  },
});

const localWalletOperation = defineOperation({
  method: 'post',
  path: '/dev/local-wallet/transfers',
  operationId: 'sendFromLocalWallet',
  tags: ['Development'],
  summary: 'Send from the local test wallet (development only)',
  description:
    'Sends a funding token from the local test wallet to an address, as a customer’s own wallet would: how a payout is funded by hand on `npm start` (send its `funding.amount` of its `funding.token` to its `funding.depositAddress`). The local chain stands in for every funding chain; a Bitcoin transfer is put in the local provider’s mempool and mined at once. Development nodes only: it is not mounted in production.',
  guard: 'none',
  request: { body: localWalletTransfer },
  answers: standardAnswers({
    '201': success(201, localWalletSent, 'The transfer, mined'),
    '400': invalid('the body is not a LocalWalletTransfer'),
    '404': failure(404, [LOCAL_WALLET_UNAVAILABLE]),
    '422': detailedFailure(422, [
      {
        ...LOCAL_WALLET_REFUSED,
        details: z.object({ providerCode: z.string().meta({ description: 'The local provider’s own code', example: 'UNSUPPORTED_TOKEN' }) }),
      },
    ]),
  }),
  handle:
    (deps: DevDependencies) =>
    async (ctx, { body }) => {
      if (!deps.localWallet)
        throw new ApiError(404, 'This node runs no local conversion provider, so it has no local test wallet', LOCAL_WALLET_UNAVAILABLE.code);
      const outcome = await deps.localWallet.send(body);
      if ('refused' in outcome) {
        const { code, message } = outcome.refused;
        throw new ApiError(statusOfCode(LOCAL_WALLET_REFUSED.code), `The local wallet did not send it: ${message}`, LOCAL_WALLET_REFUSED.code, {
          providerCode: code,
        });
      }
      reply(ctx, 201, 'Sent from the local wallet', localWalletSent, outcome.sent);
    },
});
