/**
 * Opening a dispute (docs/disputes.md): the disputed payment, resolved to its order,
 * merchant, rail, seller and amounts, becomes the `dispute` actor's OPEN. The actor's id
 * comes from the platform and its case id, so the same dispute opened again (by the
 * customer and then the maker, or a retried request) answers the dispute as it stands.
 *
 * The seller is the maker's deposit owner on Base, and the stake status the deposit's
 * dispute protection, both as the liquidity book reads the deposit when the dispute
 * opens. A sandbox payment touches no deposit: its seller is a stand-in address, and the
 * simulation says whether to treat it as protected.
 */
import { getAddress, keccak256, toBytes } from 'viem';
import { disputeActorId, disputeKind, type DisputeView } from '../../actors/kinds/dispute-kind.js';
import { paymentKind, type PaymentView } from '../../actors/kinds/payment-kind.js';
import type { LiquidityBook } from '../../actors/market/liquidity-book.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { parseFiat } from '../../machines/money.js';
import type { DisputeInput, DisputeSource, StakeStatus } from '../../machines/dispute/index.js';
import { ApiError } from '../envelope.js';

/** How long the merchant has to pay the seller before the dispute escalates. */
export const DISPUTE_DUE_MS = 7 * 24 * 60 * 60 * 1000;

interface DisputeOpeningDependencies {
  system: ActorSystem;
  liquidity: LiquidityBook | null;
  now(): string;
}

interface OpenedCase {
  platform: string;
  disputeId: string;
  source: DisputeSource;
}

type PaymentDoc = { view: PaymentView; clockId?: string };

function notDisputable(payment: PaymentView, why: string): ApiError {
  return new ApiError(409, `payment ${payment.payment.id} cannot be disputed: ${why}`, 'PAYMENT_NOT_DISPUTABLE');
}

/** A sandbox payment's seller: a fixed stand-in per deposit, since a sandbox payment names no deposit owner. */
function sandboxSellerAddress(depositId: string): string {
  return getAddress(`0x${keccak256(toBytes(`sandbox-seller:${depositId}`)).slice(26)}`);
}

async function sellerOf(
  deps: DisputeOpeningDependencies,
  payment: PaymentView,
  sandboxStake: StakeStatus,
): Promise<{ sellerAddress: string; stake: StakeStatus }> {
  const depositId = payment.payment.quote.signalIntent.depositId;
  if (payment.environment === 'SANDBOX') return { sellerAddress: sandboxSellerAddress(depositId), stake: sandboxStake };
  const deposit = await deps.liquidity?.deposit(depositId);
  if (!deposit) throw new ApiError(503, `the maker's deposit ${depositId} is not in this node's liquidity book`, 'DISPUTES_UNAVAILABLE');
  return { sellerAddress: getAddress(deposit.depositor), stake: deposit.disputeProtection ? 'PROTECTED' : 'UNPROTECTED' };
}

/** Opens (or answers the already open) dispute over a payment; the payment must be a settled fiat attempt. */
export async function openDispute(
  deps: DisputeOpeningDependencies,
  doc: PaymentDoc,
  opened: OpenedCase,
  sandboxStake: StakeStatus = 'UNPROTECTED',
): Promise<{ view: DisputeView; created: boolean }> {
  const { view: payment } = doc;
  if (payment.status !== 'SETTLED') throw notDisputable(payment, `it is ${payment.status}, and only a SETTLED payment can be`);
  if (payment.crypto) throw notDisputable(payment, 'a crypto payment is final on its chain; only a fiat payment can be reversed');
  const id = disputeActorId(opened.platform, opened.disputeId);
  const existing = await deps.system.views(disputeKind).findOne({ _id: id }, { projection: { view: 1 } });
  if (existing) return { view: existing.view, created: false };
  const { sellerAddress, stake } = await sellerOf(deps, payment, sandboxStake);
  const clockId = payment.environment === 'SANDBOX' ? doc.clockId : undefined;
  const nowMs = clockId ? await deps.system.clockTime(clockId) : Date.parse(deps.now());
  const input: Omit<DisputeInput, 'id'> = {
    disputeId: opened.disputeId,
    platform: opened.platform,
    source: opened.source,
    orderId: payment.orderId,
    paymentId: payment.payment.id,
    intentHash: payment.payment.railIdentifier ?? '',
    merchantId: payment.merchantId,
    environment: payment.environment,
    rail: payment.rail,
    amountUsdc: BigInt(payment.payment.quote.signalIntent.amount),
    caseAmountCents: parseFiat(payment.payment.paymentAmount),
    caseCurrency: payment.payment.currency,
    sellerAddress,
    stakeStatusAtOpen: stake,
    fulfillTxHash: payment.live ? payment.payment.fulfillTransaction : null,
    at: new Date(nowMs).toISOString(),
    dueAt: new Date(nowMs + DISPUTE_DUE_MS).toISOString(),
  };
  try {
    const view = await deps.system.ask(disputeKind, id, { type: 'OPEN', ...input, ...(clockId ? { clockId } : {}) });
    return { view, created: true };
  } catch (error) {
    // Opened by another request meanwhile: the dispute as it stands.
    if ((error as { code?: string }).code !== 'ALREADY_EXISTS') throw error;
    const raced = await deps.system.views(disputeKind).findOne({ _id: id }, { projection: { view: 1 } });
    if (!raced) throw error;
    return { view: raced.view, created: false };
  }
}

/** The payment view and its test clock, by id. */
export async function paymentDoc(system: ActorSystem, filter: Record<string, unknown>): Promise<PaymentDoc | null> {
  const doc = await system.documents(paymentKind.name).findOne(filter, { projection: { view: 1, clockId: 1 } });
  return doc ? { view: doc.view as unknown as PaymentView, ...(typeof doc.clockId === 'string' ? { clockId: doc.clockId } : {}) } : null;
}
