/**
 * Connecting the customer's Venmo, Cash App or PayPal account to their payout
 * (docs/payout-checkout.md, "Connecting an account"): they sign in to the account (on a
 * development node, in the platform simulator: the app's pop-up), the page seals that session
 * to the attestation service for their wallet, and the service's identity registration
 * (document 3, POST /identity) answers the attestation the checkout's connect takes.
 */
import type { Address, Hex } from 'viem';
import { sealToEnclave } from './enclave-seal.js';
import type { CashoutPageConfig } from './cashout-page-config.js';
import { signInToSimulator } from './simulator-client.js';

/** What POST …/connect takes: the identity attestation as /identity answered it. */
export interface IdentityAttestation {
  typedDataValue: Record<string, unknown>;
  signature: Hex;
  signer: Address;
}

/** The identity registration of an account on a rail, and how the simulator signs in to it. */
export interface AccountRegistration {
  platform: string;
  actionType: string;
  params: Record<string, string>;
  /** The simulator's sign-in: a Venmo user id as `accountId`, a Cash App or PayPal username. */
  signIn: { accountId?: string; username?: string };
}

const SIMULATOR_USERNAME = /^[A-Za-z0-9._-]{1,32}$/;

/**
 * `account`: the account the customer signs in to, as they write it on the rail (a Venmo user
 * id, a $Cashtag, a PayPal e-mail); null when it is not one of the rail's, or the rail connects
 * no account. Venmo's registration names the account it replays (SENDER_ID); the others none.
 */
export function registrationOf(rail: string, account: string): AccountRegistration | null {
  const typed = account.trim();
  switch (rail) {
    case 'venmo':
      return /^\d{1,20}$/.test(typed) ? { platform: rail, actionType: 'register_venmo', params: { SENDER_ID: typed }, signIn: { accountId: typed } } : null;
    case 'cashapp': {
      const username = typed.replace(/^\$/, '');
      return SIMULATOR_USERNAME.test(username) ? { platform: rail, actionType: 'register_cashapp', params: {}, signIn: { username } } : null;
    }
    case 'paypal': {
      // The simulator's PayPal account `name` is name@example.com.
      const match = /^([^@\s]+)@example\.com$/i.exec(typed);
      const username = match?.[1];
      return username && SIMULATOR_USERNAME.test(username) ? { platform: rail, actionType: 'register_paypal', params: {}, signIn: { username } } : null;
    }
    default:
      return null;
  }
}

/** Whether this node can connect an account from the page: the simulator to sign in to, and the enclave to seal to. */
export function canConnect(config: CashoutPageConfig): boolean {
  return Boolean(config.simulatorUrl && config.attestationServiceUrl && config.enclave && config.chainId !== null);
}

/** Signs in to the account in the simulator and asks the attestation service for its identity attestation, for `wallet`. */
export async function attestAccount(config: CashoutPageConfig, registration: AccountRegistration, wallet: Address): Promise<IdentityAttestation> {
  if (!canConnect(config)) throw new Error('this node cannot connect accounts from the page');
  const session = await signInToSimulator(config.simulatorUrl!, registration.platform, registration.signIn);
  const serviceUrl = config.attestationServiceUrl!;
  const encryptedSessionMaterial = await sealToEnclave(serviceUrl, config.enclave!, session.material, {
    purpose: 'identity',
    platform: registration.platform,
    callerAddress: wallet,
  });
  const response = await fetch(`${serviceUrl}/identity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      platform: registration.platform,
      actionType: registration.actionType,
      callerAddress: wallet,
      encryptedSessionMaterial,
      params: registration.params,
      chainId: config.chainId,
    }),
  });
  const envelope = (await response.json().catch(() => null)) as { message?: string; responseObject?: IdentityAttestation } | null;
  const attested = envelope?.responseObject;
  if (!response.ok || !attested) throw new Error(envelope?.message ?? `the attestation service answered ${response.status}`);
  return { typedDataValue: attested.typedDataValue, signature: attested.signature, signer: attested.signer };
}
