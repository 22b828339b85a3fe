/**
 * The buyer's side of a live payment in the embedded default. The page signs in to the
 * payment-platform simulator as a test buyer and sends the payment there, as a customer
 * would in their app; then it proves the payment: it fetches the attestation service's
 * document for a fresh nonce, checks the document is the trusted enclave's, and seals
 * the buyer's session material to the key the document names, for this intent only.
 * The sealed material is all the node ever sees of the session.
 */
import { bytesToHex, type Address, type Hex } from 'viem';
import type { AttestationDocument } from '../../../proto/attestation/attestation-document.js';
import { checkDocumentBinding, sealSessionMaterial } from '../../../proto/attestation/session-seal.js';
import type { CheckoutPayment } from './api.js';
import type { CheckoutPageConfig } from './page-config.js';

/** A payment the buyer sent in the simulator, with the session it was sent from. */
export interface SentPayment {
  platform: string;
  material: Record<string, unknown>;
  paymentId: string;
  proofParams: Record<string, string>;
}

/** How long the sealed material may be opened: long enough to verify, never a stored credential. */
const SEAL_LIFETIME_SECONDS = 600;

export async function payInSimulator(simulatorUrl: string, payment: CheckoutPayment): Promise<SentPayment> {
  const platform = payment.quote.signalIntent.processorName;
  const session = await post<{ material: Record<string, unknown> }>(`${simulatorUrl}/_buyer/sessions`, { platform });
  const sent = await post<{ paymentId: string; proofParams: Record<string, string> }>(`${simulatorUrl}/_buyer/payments`, {
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
  const nonce = bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
  const response = await fetch(`${payment.attestation.serviceUrl}/attestation?nonce=${nonce}`);
  const document = ((await response.json()) as { responseObject: AttestationDocument }).responseObject;
  await trusted(document, config.enclave, nonce);
  const encryptedSessionMaterial = await sealSessionMaterial(document, sent.material, {
    purpose: 'payment',
    platform: sent.platform,
    chainId: config.chainId,
    intentHash,
    expiresAt: Math.floor(Date.now() / 1000) + SEAL_LIFETIME_SECONDS,
  });
  return { encryptedSessionMaterial, params: sent.proofParams };
}

/** The document must be signed, for our nonce, by one of the witnesses, showing the published measurement. */
async function trusted(document: AttestationDocument, enclave: { measurement: string; signers: string[] }, nonce: Hex): Promise<void> {
  const signer = enclave.signers.find((candidate) => candidate.toLowerCase() === document.signer.toLowerCase());
  if (!signer) throw new Error(`the attestation service signs as ${document.signer}, which is not a trusted witness`);
  await checkDocumentBinding(document, { measurement: enclave.measurement, signer: signer as Address }, nonce);
}

/** The local conversion provider's test wallet sends the attempt's token to its deposit address, on the local chain. */
export async function sendFromTestWallet(conversionSimulatorUrl: string, payment: CheckoutPayment): Promise<{ transactionHash: string }> {
  return post(`${conversionSimulatorUrl}/_buyer/transfers`, { depositAddress: payment.payTo, token: payment.currency, amount: payment.paymentAmount });
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (!response.ok || !answer) throw new Error(answer?.error?.message ?? `the simulator answered ${response.status}`);
  return answer;
}
