/**
 * The buyer's side of a live payment in the embedded default. The page signs in to the
 * payment-platform simulator as a test buyer and sends the payment there, as a customer
 * would in their app; then it proves the payment: it seals the buyer's session material
 * to the trusted enclave (enclave-seal.ts), for this intent only.
 */
import type { Hex } from 'viem';
import type { CheckoutPayment } from './api.js';
import { sealToEnclave } from './enclave-seal.js';
import type { CheckoutPageConfig } from './page-config.js';
import { signInToSimulator, simulatorPost } from './simulator-client.js';

/** A payment the buyer sent in the simulator, with the session it was sent from. */
export interface SentPayment {
  platform: string;
  material: Record<string, unknown>;
  paymentId: string;
  proofParams: Record<string, string>;
}

export async function payInSimulator(simulatorUrl: string, payment: CheckoutPayment): Promise<SentPayment> {
  const platform = payment.quote.signalIntent.processorName;
  const session = await signInToSimulator(simulatorUrl, platform);
  const sent = await simulatorPost<{ paymentId: string; proofParams: Record<string, string> }>(`${simulatorUrl}/_buyer/payments`, {
    platform,
    material: session.material,
    payee: payment.payTo,
    amount: payment.paymentAmount,
    currency: payment.currency,
    ...(payment.suggestedMemo ? { note: payment.suggestedMemo } : {}),
  });
  return { platform, material: session.material, paymentId: sent.paymentId, proofParams: sent.proofParams };
}

export async function sealProof(
  config: CheckoutPageConfig,
  payment: CheckoutPayment,
  sent: SentPayment,
): Promise<{ encryptedSessionMaterial: string; params: Record<string, string> }> {
  if (!config.enclave || config.chainId === null) throw new Error('this checkout has no attestation service to prove payments to');
  const intentHash = payment.railIdentifier as Hex | null;
  if (!intentHash?.startsWith('0x')) throw new Error('the payment is not signalled on chain yet');
  const encryptedSessionMaterial = await sealToEnclave(payment.attestation.serviceUrl, config.enclave, sent.material, {
    purpose: 'payment',
    platform: sent.platform,
    chainId: config.chainId,
    intentHash,
  });
  return { encryptedSessionMaterial, params: sent.proofParams };
}

/** The local conversion provider's test wallet sends the attempt's token to its deposit address, on the local chain. */
export async function sendFromTestWallet(conversionSimulatorUrl: string, payment: CheckoutPayment): Promise<{ transactionHash: string }> {
  return simulatorPost(`${conversionSimulatorUrl}/_buyer/transfers`, { depositAddress: payment.payTo, token: payment.currency, amount: payment.paymentAmount });
}
