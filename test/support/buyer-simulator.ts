/**
 * A buyer's client over HTTP, as the checkout page in a browser is one: it signs in to a
 * platform in the simulator's buyer API, sends the maker a payment there, fetches the
 * attestation service's document (with a nonce of its own), checks it against the signer
 * and measurement it was configured to trust, and seals the session material to it for
 * one payment's intent. Nothing here reaches into the node's process.
 */
import { randomBytes } from 'node:crypto';
import type { Address, Hex } from 'viem';
import { checkAttestationDocument, sealSessionMaterial, type AttestationDocument, type TrustedEnclave } from '../../enclave/index.js';

export interface BuyerSession {
  platform: string;
  account: { id: string; username: string; handle?: string };
  material: Record<string, string>;
}

export interface SentPayment {
  paymentId: string;
  timestampMs: number;
  proofParams: Record<string, string>;
}

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export class BuyerSimulator {
  /** `simulatorUrl`: the platform simulator's base URL, where /_buyer/ lives. */
  constructor(private readonly simulatorUrl: string) {}

  /** `accountId`: an account that exists already (a Venmo user id a customer gave as theirs); a new one when left out. */
  async signIn(platform: string, username?: string, accountId?: string): Promise<BuyerSession> {
    const answer = await post<{ account: BuyerSession['account']; material: Record<string, string> }>(`${this.simulatorUrl}/_buyer/sessions`, {
      platform,
      ...(username === undefined ? {} : { username }),
      ...(accountId === undefined ? {} : { accountId }),
    });
    return { platform, account: answer.account, material: answer.material };
  }

  pay(session: BuyerSession, payment: { payee: string; amount: string; currency: string; note?: string }): Promise<SentPayment> {
    return post<SentPayment>(`${this.simulatorUrl}/_buyer/payments`, { platform: session.platform, material: session.material, ...payment });
  }
}

/** The attestation service's document, fresh for a nonce of ours, checked before anything is sealed to it. */
export async function trustedDocument(serviceUrl: string, trusted: TrustedEnclave): Promise<AttestationDocument> {
  const nonce = `0x${randomBytes(32).toString('hex')}` as Hex;
  const response = await fetch(`${serviceUrl}/attestation?nonce=${nonce}`);
  const envelope = (await response.json()) as { success: boolean; responseObject: AttestationDocument; errorCode?: string };
  if (!response.ok || !envelope.success) throw new Error(`GET ${serviceUrl}/attestation answered ${response.status} ${envelope.errorCode ?? ''}`);
  await checkAttestationDocument(envelope.responseObject, trusted, nonce);
  return envelope.responseObject;
}

/** Session material sealed for proving one payment: this platform, this chain, this intent, for ten minutes. */
export async function sealForPayment(
  serviceUrl: string,
  trusted: { measurement: string; signer: Address },
  session: BuyerSession,
  intent: { chainId: number; intentHash: Hex },
): Promise<string> {
  const document = await trustedDocument(serviceUrl, trusted);
  return sealSessionMaterial(document, session.material, {
    purpose: 'payment',
    platform: session.platform,
    chainId: intent.chainId,
    intentHash: intent.intentHash,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  });
}
