/**
 * Disputes (docs/disputes.md). Opening: anyone holding the attestation service's dispute
 * attestation (the customer who got the platform's e-mail, or the maker) opens one with
 * POST /api/v1/disputes, authenticated by the attestation's signature alone; a sandbox
 * key simulates one over its own settled payment. The merchant reads its disputes and
 * pays one by naming the Base transaction that sent the seller amountUsdc.
 */
import type { Hex } from 'viem';
import { disputeKind } from '../../actors/kinds/dispute-kind.js';
import type { LiquidityBook } from '../../actors/market/liquidity-book.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { audited, type AuditLog } from '../dashboard/audit-log.js';
import { ApiError, reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { merchantRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { checkDisputeAttestation, type DisputeTrust } from './dispute-attestation.js';
import { openDispute, paymentDoc } from './dispute-opening.js';
import { listDisputes, merchantDisputeOf, ownDispute } from './dispute-reads.js';
import { disputePayload, merchantDispute, merchantDisputeList } from './dispute-resources.js';
import { listDisputesQuery, openDisputeBody, payDisputeBody, disputePath, simulateDisputeBody } from './dispute-schemas.js';
import type { DisputePaymentClaims, DisputeTransfers } from './dispute-transfer.js';

export interface DisputeDependencies {
  system: ActorSystem;
  liquidity: LiquidityBook | null;
  now(): string;
  /** What attested disputes are checked against, and how payments are read from the chain; null on a node that reads no chain. */
  disputes: { trust: DisputeTrust | null; transfers: DisputeTransfers | null; claims: DisputePaymentClaims };
  /** Where a dashboard member's payment record is kept (docs/dashboard-auth.md). */
  audit: AuditLog;
  /** Where a list's total stops counting (paged-views.ts). */
  totalCap: number;
}

const DISPUTE_NOT_FOUND = { code: 'NOT_FOUND' as const, when: 'the dispute does not exist, is another merchant’s, or lives in the other environment' };
const NOT_DISPUTABLE = { code: 'PAYMENT_NOT_DISPUTABLE' as const, when: 'the payment is not SETTLED, or is a crypto payment' };

const openDisputeOperation = defineOperation({
  method: 'post',
  path: '/api/v1/disputes',
  operationId: 'openDispute',
  tags: ['Disputes'],
  summary: 'Open a dispute over a payment with the attestation service’s dispute attestation',
  description: [
    'Send the responseObject of the attestation service’s POST /dispute/verify/{platform}/dispute_{platform} as it answered: its signature, by a signer this node trusts, over the platform’s DKIM-signed dispute e-mail, is the authentication (no key). The customer or the maker may open it.',
    'The attested intent names the payment; it must be SETTLED. 201 with the dispute payload (DISPUTE_OPENED goes to the merchant); the same dispute sent again answers 200 with it as it stands.',
  ].join(' '),
  guard: 'none',
  request: { body: openDisputeBody },
  answers: standardAnswers(
    {
      '201': success(201, disputePayload, 'Dispute opened'),
      '200': success(200, disputePayload, 'The dispute was already open: as it stands'),
      '400': invalid('the body'),
      '404': failure(404, [{ code: 'NOT_FOUND', when: 'no payment of this node has the attested intent' }]),
      '409': failure(409, [NOT_DISPUTABLE]),
      '422': failure(422, [{ code: 'DISPUTE_ATTESTATION_INVALID' }]),
    },
    { body: true, asksActors: true, unavailable: [{ code: 'DISPUTES_UNAVAILABLE' }] },
  ),
  handle:
    (deps: DisputeDependencies) =>
    async (ctx, { body }) => {
      const trust = deps.disputes.trust;
      if (!trust) throw new ApiError(503, 'This node reads no chain or trusts no attestation service', 'DISPUTES_UNAVAILABLE');
      const intentHash = await checkDisputeAttestation(trust, body);
      const doc = await paymentDoc(deps.system, { 'view.payment.railIdentifier': intentHash, 'view.environment': 'LIVE' });
      if (!doc) throw new ApiError(404, 'No payment has the attested intent', 'NOT_FOUND');
      const { view, created } = await openDispute(deps, doc, { platform: body.dispute.platform, disputeId: body.dispute.disputeId, source: 'ATTESTATION' });
      reply(ctx, created ? 201 : 200, created ? 'Dispute opened' : 'Dispute already open', disputePayload, view.dispute);
    },
});

const simulateDisputeOperation = defineOperation({
  method: 'post',
  path: '/api/v1/merchants/me/disputes/simulate',
  operationId: 'simulateDispute',
  tags: ['Disputes'],
  summary: 'Sandbox: open a dispute over one of your settled payments',
  description:
    'A sandbox key only. Opens the dispute a customer would open with an attestation (platform sandbox, case id SIM- and the payment id): the same OPEN, DISPUTE_OPENED, dueAt and escalation, on the order’s test clock when it has one. Sent again, answers the dispute as it stands.',
  guard: 'merchant',
  extensions: { 'x-key-environment': 'SANDBOX' },
  request: { body: simulateDisputeBody },
  answers: standardAnswers(
    {
      '201': success(201, merchantDispute, 'Dispute opened'),
      '200': success(200, merchantDispute, 'The dispute was already open: as it stands'),
      '400': invalid('the body'),
      ...merchantRefusals(true, [{ code: 'SANDBOX_ONLY', when: 'a live key or session: live disputes are opened with an attestation' }]),
      '404': failure(404, [{ code: 'NOT_FOUND', when: 'the payment does not exist, is another merchant’s, or lives in the other environment' }]),
      '409': failure(409, [NOT_DISPUTABLE]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: DisputeDependencies) =>
    async (ctx, { body }) => {
      const { account } = ctx.state;
      if (account.environment !== 'SANDBOX') throw new ApiError(403, 'Disputes are simulated with a sandbox key only', 'SANDBOX_ONLY');
      const doc = await paymentDoc(deps.system, { _id: body.paymentId, 'view.merchantId': account.merchantId, 'view.environment': account.environment });
      if (!doc) throw new ApiError(404, 'Payment not found', 'NOT_FOUND');
      const { view, created } = await openDispute(
        deps,
        doc,
        { platform: 'sandbox', disputeId: `SIM-${body.paymentId}`, source: 'SANDBOX_SIMULATION' },
        body.disputeProtection ? 'PROTECTED' : 'UNPROTECTED',
      );
      reply(ctx, created ? 201 : 200, created ? 'Dispute opened' : 'Dispute already open', merchantDispute, await merchantDisputeOf(deps.system, view));
    },
});

const listDisputesOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/disputes',
  operationId: 'listDisputes',
  tags: ['Disputes'],
  summary: 'List your disputes, newest first',
  description: 'A key sees its own environment only.',
  guard: 'merchant',
  request: { query: listDisputesQuery },
  answers: standardAnswers({
    '200': success(200, merchantDisputeList, 'A page of disputes and the total'),
    '400': invalid('the query'),
    ...merchantRefusals(false),
  }),
  handle:
    (deps: DisputeDependencies) =>
    async (ctx, { query }) => {
      reply(ctx, 200, 'Disputes', merchantDisputeList, await listDisputes(deps.system, ctx.state.account, query, deps.totalCap));
    },
});

const getDisputeOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/disputes/:disputeId',
  operationId: 'getDispute',
  tags: ['Disputes'],
  summary: 'One of your disputes',
  description: 'Document 1’s dispute payload with the merchant read fields.',
  guard: 'merchant',
  request: { path: disputePath },
  answers: standardAnswers({
    '200': success(200, merchantDispute, 'The dispute'),
    '400': invalid('disputeId is not a dispute id'),
    ...merchantRefusals(false),
    '404': failure(404, [DISPUTE_NOT_FOUND]),
  }),
  handle:
    (deps: DisputeDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Dispute', merchantDispute, await merchantDisputeOf(deps.system, await ownDispute(deps.system, ctx.state.account, path.disputeId)));
    },
});

const payDisputeOperation = defineOperation({
  method: 'post',
  path: '/api/v1/merchants/me/disputes/:disputeId/payment',
  operationId: 'payDispute',
  tags: ['Disputes'],
  summary: 'Record your payment of a dispute by its Base transaction',
  description: [
    'Send amountUsdc of USDC to sellerAddress on Base, then name the transaction here. The node reads its receipt: once it is mined and its USDC Transfer logs to sellerAddress add up to at least amountUsdc, the dispute is PAID with paidTxHash (DISPUTE_PAID). One transaction pays one dispute.',
    'In the sandbox no chain is read: the hash is recorded as given. The same hash sent again for a PAID dispute answers it as it stands.',
  ].join(' '),
  guard: 'merchant',
  roles: ['OWNER', 'MANAGER'],
  before: (deps: DisputeDependencies) => [audited(deps.audit, 'payDispute')],
  request: { path: disputePath, body: payDisputeBody },
  answers: standardAnswers(
    {
      '200': success(200, merchantDispute, 'The dispute, PAID'),
      '400': invalid('the path or the body'),
      ...merchantRefusals(true, [{ code: 'ROLE_NOT_ALLOWED', when: 'the signed-in member is a cashier' }]),
      '404': failure(404, [DISPUTE_NOT_FOUND]),
      '409': failure(409, [{ code: 'DISPUTE_NOT_OPEN' }, { code: 'DISPUTE_TRANSFER_USED' }]),
      '422': failure(422, [{ code: 'DISPUTE_TRANSFER_NOT_FOUND' }]),
    },
    { body: true, asksActors: true, unavailable: [{ code: 'DISPUTES_UNAVAILABLE', when: 'a live dispute on a node that reads no chain' }] },
  ),
  handle:
    (deps: DisputeDependencies) =>
    async (ctx, { path, body }) => {
      // Recording money the merchant paid is an Owner's or a Manager's, as every dashboard write of money is.
      const { account } = ctx.state;
      const dispute = await ownDispute(deps.system, account, path.disputeId);
      const txHash = body.txHash.toLowerCase();
      const payAgain = dispute.status === 'PAID' && dispute.dispute.paidTxHash === txHash;
      if (!payAgain) {
        if (dispute.status !== 'OPEN') throw new ApiError(409, `The dispute is ${dispute.status}: it takes no payment`, 'DISPUTE_NOT_OPEN');
        if (account.environment === 'LIVE') {
          if (!deps.disputes.transfers) throw new ApiError(503, 'This node reads no chain', 'DISPUTES_UNAVAILABLE');
          const sent = await deps.disputes.transfers.sentTo(txHash as Hex, dispute.sellerAddress as Hex);
          if (sent === null || sent < BigInt(dispute.dispute.amountUsdc))
            throw new ApiError(
              422,
              `transaction ${txHash} ${sent === null ? 'is not mined on this node’s chain' : `sent ${sent} USDC units to ${dispute.sellerAddress}, less than ${dispute.dispute.amountUsdc}`}`,
              'DISPUTE_TRANSFER_NOT_FOUND',
            );
        }
        if (!(await deps.disputes.claims.claim(txHash, path.disputeId)))
          throw new ApiError(409, `transaction ${txHash} already paid another dispute`, 'DISPUTE_TRANSFER_USED');
        const clockAt = await disputeNow(deps, path.disputeId);
        await deps.system.ask(disputeKind, path.disputeId, { type: 'PAY', txHash, at: clockAt }, { messageId: `pay:${path.disputeId}:${txHash}` });
      }
      reply(ctx, 200, 'Dispute paid', merchantDispute, await merchantDisputeOf(deps.system, await ownDispute(deps.system, account, path.disputeId)));
    },
});

/** Now as the dispute's turns see it: its test clock's time for a sandbox dispute attached to one. */
async function disputeNow(deps: DisputeDependencies, id: string): Promise<string> {
  const doc = await deps.system.documents(disputeKind.name).findOne({ _id: id }, { projection: { clockId: 1 } });
  return typeof doc?.clockId === 'string' ? new Date(await deps.system.clockTime(doc.clockId)).toISOString() : deps.now();
}

export function disputeOperations(): Operation<DisputeDependencies>[] {
  return [openDisputeOperation, simulateDisputeOperation, listDisputesOperation, getDisputeOperation, payDisputeOperation];
}
