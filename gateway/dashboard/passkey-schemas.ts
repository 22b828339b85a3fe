/**
 * The bodies and answers of the dashboard's passkey routes (docs/dashboard-auth.md). The WebAuthn
 * options and responses are the W3C's JSON forms (PublicKeyCredentialCreationOptionsJSON and the
 * rest), passed to and from the browser's navigator.credentials as @simplewebauthn/browser does;
 * only their outline is checked here, the rest by the WebAuthn verification.
 */
import { z } from 'zod';
import { environment, isoTime } from '../schemas/common.js';

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/** A credential's id, as the routes name a passkey: base64url, 16 to 1,366 characters (1,023 bytes, WebAuthn's most). */
export const passkeyPath = z.strictObject({
  passkeyId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,1366}$/)
    .meta({ description: 'The passkey’s id: its WebAuthn credential id, base64url' }),
});

const credentialOutline = {
  id: base64url.max(1366),
  rawId: base64url.max(1366),
  type: z.literal('public-key'),
  clientExtensionResults: z.looseObject({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

const registrationResponse = z
  .looseObject({
    ...credentialOutline,
    response: z.looseObject({
      clientDataJSON: base64url.max(10_000),
      attestationObject: base64url.max(100_000),
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
  })
  .meta({ description: 'What navigator.credentials.create() answered, in JSON (RegistrationResponseJSON)' });

const authenticationResponse = z
  .looseObject({
    ...credentialOutline,
    response: z.looseObject({
      clientDataJSON: base64url.max(10_000),
      authenticatorData: base64url.max(10_000),
      signature: base64url.max(2_000),
      userHandle: base64url.max(1_000).optional(),
    }),
  })
  .meta({ description: 'What navigator.credentials.get() answered, in JSON (AuthenticationResponseJSON)' });

export const registerPasskeyBody = z
  .strictObject({
    response: registrationResponse,
    name: z.string().trim().min(1).max(64).optional().meta({ description: 'What the member calls it (“work laptop”); a dated name when absent' }),
  })
  .meta({ description: 'The answer to the registration options, within five minutes of asking for them' });

export const passkeySignInBody = z
  .strictObject({
    response: authenticationResponse,
    environment: environment.optional().meta({ description: 'The environment the session starts in; LIVE when absent' }),
  })
  .meta({ description: 'The answer to the sign-in options, within five minutes of asking for them' });

export const creationOptions = z
  .looseObject({
    challenge: z.string().meta({ description: 'Single use, for five minutes' }),
    rp: z.looseObject({ id: z.string().optional(), name: z.string() }),
    user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.looseObject({ alg: z.number(), type: z.string() })),
  })
  .meta({ id: 'PasskeyCreationOptions', description: 'PublicKeyCredentialCreationOptionsJSON: hand it to navigator.credentials.create() (startRegistration)' });

export const requestOptions = z
  .looseObject({
    challenge: z.string().meta({ description: 'Single use, for five minutes' }),
    rpId: z.string().optional(),
  })
  .meta({ id: 'PasskeyRequestOptions', description: 'PublicKeyCredentialRequestOptionsJSON: hand it to navigator.credentials.get() (startAuthentication)' });

export const passkey = z
  .object({
    passkeyId: z.string().meta({ description: 'Its WebAuthn credential id, base64url' }),
    name: z.string(),
    transports: z.array(z.string()).meta({ description: 'How the authenticator said it may be reached (internal, hybrid, usb, …)' }),
    createdAt: isoTime,
    lastUsedAt: isoTime.nullable().meta({ description: 'Its last sign-in; null before the first' }),
  })
  .meta({ id: 'DashboardPasskey', description: 'A passkey of the signed-in member (its public key is never shown)' });

export const passkeyList = z
  .object({ passkeys: z.array(passkey) })
  .meta({ id: 'DashboardPasskeyList', description: 'The signed-in member’s passkeys, oldest first' });

export const passkeyRemoved = z
  .object({ passkeyId: z.string(), removedAt: isoTime })
  .meta({ id: 'DashboardPasskeyRemoved', description: 'The passkey no longer signs in' });

export const passkeyRefusal = z.object({
  reason: z
    .enum(['CHALLENGE_INVALID', 'CHALLENGE_EXPIRED', 'UNKNOWN_CREDENTIAL', 'SIGNATURE_INVALID', 'COUNTER_REGRESSED'])
    .meta({ description: 'Why the passkey did not sign in' }),
});

export const registrationRefusal = z.object({
  reason: z.enum(['CHALLENGE_INVALID', 'CHALLENGE_EXPIRED', 'VERIFICATION_FAILED']).meta({ description: 'Why the passkey was not registered' }),
});
