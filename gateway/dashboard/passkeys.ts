/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): a team member's second way to sign in,
 * beside the e-mailed code (docs/dashboard-auth.md). A signed-in member registers one; anyone
 * may ask to sign in with one, naming nobody (a discoverable credential), so the options say
 * nothing of who is on a team. The passkey is kept on the member's record in the business's
 * merchant actor (`ADD_PASSKEY`, `USE_PASSKEY`, `REMOVE_PASSKEY`), found again by its credential
 * id through the merchant view's index.
 *
 * Each ceremony's challenge is drawn here, kept in the node's store for five minutes on the
 * node's clock and deleted by the first answer that names it: a challenge never serves twice,
 * whichever node took it, and an answer naming a challenge this store never held is refused
 * before any signature is looked at. The relying party is the dashboard's origin (DASHBOARD_ORIGIN,
 * or the node's own address), its id that origin's host.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { Collection, Store } from '../../actors/store/store.js';
import type { MemberPasskey } from '../../machines/merchant/index.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccounts } from '../merchants/merchant-accounts.js';
import type { SessionPrincipal } from './principal.js';

/** How long a ceremony's challenge may wait for its answer. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export type PasskeySignInRefusal = 'CHALLENGE_INVALID' | 'CHALLENGE_EXPIRED' | 'UNKNOWN_CREDENTIAL' | 'SIGNATURE_INVALID' | 'COUNTER_REGRESSED';
export type PasskeyRegistrationRefusal = 'CHALLENGE_INVALID' | 'CHALLENGE_EXPIRED' | 'VERIFICATION_FAILED';

export interface PasskeyDependencies {
  system: ActorSystem;
  accounts: MerchantAccounts;
  store: Store;
  /** The dashboard's origin, such as https://dashboard.example.com (known once the node listens). */
  origin(): string;
  now(): string;
}

/** What a member is shown of a passkey: never its key. */
export interface PasskeySummary {
  passkeyId: string;
  name: string;
  transports: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

/** A passkey that signed in: the member and business it belongs to. */
export interface PasskeyOwner {
  businessId: string;
  userId: string;
}

type ChallengeDoc = {
  _id: string;
  ceremony: 'register' | 'sign-in';
  /** The member a registration is for; null for a sign-in, which names nobody. */
  userId: string | null;
  expiresAt: number;
};

type KeptPasskey = MemberPasskey & { userId: string };

export class DashboardPasskeys {
  #collection: Promise<Collection<ChallengeDoc>> | null = null;

  constructor(private readonly deps: PasskeyDependencies) {}

  get rpId(): string {
    return new URL(this.deps.origin()).hostname;
  }

  async registrationOptions(member: SessionPrincipal): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const business = await this.deps.accounts.byId(member.businessId);
    const options = await generateRegistrationOptions({
      rpName: business?.profile.name ? `${business.profile.name} on Peer` : 'Peer dashboard',
      rpID: this.rpId,
      userName: member.email,
      userID: new TextEncoder().encode(member.userId),
      attestationType: 'none',
      // The member's own passkeys, so an authenticator that holds one already says so rather than making a second.
      excludeCredentials: (await this.#passkeysOf(member)).map((passkey) => ({ id: passkey.credentialId, transports: transportsOf(passkey) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      timeout: PASSKEY_CHALLENGE_TTL_MS,
    });
    await this.#keep(options.challenge, 'register', member.userId);
    return options;
  }

  async register(member: SessionPrincipal, response: RegistrationResponseJSON, name: string | undefined): Promise<PasskeySummary> {
    const challenge = challengeOf(response.response.clientDataJSON);
    if (!challenge) throw registrationRefusal('CHALLENGE_INVALID');
    const refused = await this.#consume(challenge, 'register', member.userId);
    if (refused) throw registrationRefusal(refused);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.deps.origin(),
        expectedRPID: this.rpId,
        requireUserVerification: false,
      });
    } catch (error) {
      throw registrationRefusal('VERIFICATION_FAILED', error);
    }
    if (!verified.verified) throw registrationRefusal('VERIFICATION_FAILED');
    const { credential } = verified.registrationInfo;
    const at = this.deps.now();
    const passkey = {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? response.response.transports ?? [],
      name: name ?? `Passkey added ${at.slice(0, 10)}`,
    };
    await this.deps.system.ask(merchantKind, member.businessId, { type: 'ADD_PASSKEY', userId: member.userId, passkey, at });
    return summary({ ...passkey, createdAt: at, lastUsedAt: null });
  }

  async list(member: SessionPrincipal): Promise<PasskeySummary[]> {
    return (await this.#passkeysOf(member)).map(summary);
  }

  async remove(member: SessionPrincipal, passkeyId: string): Promise<void> {
    await this.deps.system.ask(merchantKind, member.businessId, {
      type: 'REMOVE_PASSKEY',
      userId: member.userId,
      credentialId: passkeyId,
      at: this.deps.now(),
    });
  }

  async signInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({ rpID: this.rpId, userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_TTL_MS });
    await this.#keep(options.challenge, 'sign-in', null);
    return options;
  }

  /** Checks the assertion against the passkey it names and moves its counter on; answers whose passkey it is. */
  async verifySignIn(response: AuthenticationResponseJSON): Promise<PasskeyOwner> {
    const challenge = challengeOf(response.response.clientDataJSON);
    if (!challenge) throw signInRefusal('CHALLENGE_INVALID');
    const refused = await this.#consume(challenge, 'sign-in', null);
    if (refused) throw signInRefusal(refused);
    const found = await this.deps.system
      .views(merchantKind)
      .findOne({ 'view.passkeys.credentialId': response.id, 'view.environment': 'LIVE' }, { projection: { view: 1 } });
    const passkey = (found?.view.passkeys as KeptPasskey[] | undefined)?.find((kept) => kept.credentialId === response.id);
    if (!found || !passkey) throw signInRefusal('UNKNOWN_CREDENTIAL');
    const counter = counterOf(response.response.authenticatorData);
    let newCounter: number;
    try {
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.deps.origin(),
        expectedRPID: this.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: Buffer.from(passkey.publicKey, 'base64url'),
          counter: passkey.counter,
          transports: transportsOf(passkey),
        },
        requireUserVerification: false,
      });
      if (!verified.verified) throw signInRefusal('SIGNATURE_INVALID');
      newCounter = verified.authenticationInfo.newCounter;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // A counter that did not move on (but 0 and 0, an authenticator that counts nothing) is a copied key's.
      throw signInRefusal(
        counter !== null && (counter > 0 || passkey.counter > 0) && counter <= passkey.counter ? 'COUNTER_REGRESSED' : 'SIGNATURE_INVALID',
        error,
      );
    }
    await this.deps.system.ask(merchantKind, found._id, {
      type: 'USE_PASSKEY',
      userId: passkey.userId,
      credentialId: passkey.credentialId,
      counter: newCounter,
      at: this.deps.now(),
    });
    return { businessId: found._id, userId: passkey.userId };
  }

  async #passkeysOf(member: SessionPrincipal): Promise<MemberPasskey[]> {
    const found = await this.deps.system.views(merchantKind).findOne({ _id: member.businessId }, { projection: { view: 1 } });
    return ((found?.view.passkeys ?? []) as KeptPasskey[]).filter((passkey) => passkey.userId === member.userId);
  }

  async #keep(challenge: string, ceremony: ChallengeDoc['ceremony'], userId: string | null): Promise<void> {
    const challenges = await this.#challenges();
    const now = Date.parse(this.deps.now());
    await challenges.deleteMany({ expiresAt: { $lt: now } });
    await challenges.insertOne({ _id: challenge, ceremony, userId, expiresAt: now + PASSKEY_CHALLENGE_TTL_MS });
  }

  /** Deletes the challenge, so that it answers once; why it may not be used, or null. */
  async #consume(
    challenge: string | null,
    ceremony: ChallengeDoc['ceremony'],
    userId: string | null,
  ): Promise<'CHALLENGE_INVALID' | 'CHALLENGE_EXPIRED' | null> {
    const challenges = await this.#challenges();
    const kept = await challenges.findOne({ _id: challenge });
    if (!kept || kept.ceremony !== ceremony || kept.userId !== userId) return 'CHALLENGE_INVALID';
    // Deleted by one answer only: a second racing it finds nothing to delete.
    if (!(await challenges.deleteOne({ _id: challenge }))) return 'CHALLENGE_INVALID';
    return Date.parse(this.deps.now()) >= kept.expiresAt ? 'CHALLENGE_EXPIRED' : null;
  }

  #challenges() {
    this.#collection ??= this.deps.store.collection<ChallengeDoc>({ name: 'dashboard_passkey_challenges', indexes: [] });
    return this.#collection;
  }
}

function summary(passkey: MemberPasskey): PasskeySummary {
  return { passkeyId: passkey.credentialId, name: passkey.name, transports: passkey.transports, createdAt: passkey.createdAt, lastUsedAt: passkey.lastUsedAt };
}

function transportsOf(passkey: MemberPasskey): AuthenticatorTransportFuture[] {
  return passkey.transports as AuthenticatorTransportFuture[];
}

/** The challenge the client says it answered, read from clientDataJSON; null when that is not readable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const { challenge } = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof challenge === 'string' && challenge.length > 0 ? challenge : null;
  } catch {
    return null;
  }
}

/** The signature counter of authenticatorData (bytes 33–36, big-endian); null when too short. */
function counterOf(authenticatorData: string): number | null {
  const bytes = Buffer.from(authenticatorData, 'base64url');
  return bytes.length >= 37 ? bytes.readUInt32BE(33) : null;
}

const SIGN_IN_WHY: Record<PasskeySignInRefusal, string> = {
  CHALLENGE_INVALID: 'That passkey answer is not for a sign-in this node started, or was used already: start again',
  CHALLENGE_EXPIRED: 'That passkey sign-in took too long: start again',
  UNKNOWN_CREDENTIAL: 'That passkey is not registered to any team member: sign in with an e-mailed code',
  SIGNATURE_INVALID: 'That passkey’s answer does not verify',
  COUNTER_REGRESSED: 'That passkey’s counter went backwards, as a copied key’s would: remove it and register it again',
};

const REGISTRATION_WHY: Record<PasskeyRegistrationRefusal, string> = {
  CHALLENGE_INVALID: 'That passkey answer is not for a registration this member started, or was used already: start again',
  CHALLENGE_EXPIRED: 'That passkey registration took too long: start again',
  VERIFICATION_FAILED: 'That passkey could not be verified',
};

function signInRefusal(reason: PasskeySignInRefusal, cause?: unknown): ApiError {
  return new ApiError(401, SIGN_IN_WHY[reason], 'PASSKEY_SIGN_IN_INVALID', { reason }, undefined, cause === undefined ? undefined : { cause });
}

function registrationRefusal(reason: PasskeyRegistrationRefusal, cause?: unknown): ApiError {
  return new ApiError(422, REGISTRATION_WHY[reason], 'PASSKEY_REGISTRATION_INVALID', { reason }, undefined, cause === undefined ? undefined : { cause });
}
