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
  id: base64url.max(1366).meta({ description: 'The credential id, base64url' }),
  rawId: base64url.max(1366).meta({ description: 'The same id, as WebAuthn gives it raw' }),
  type: z.literal('public-key').meta({ description: 'Always public-key' }),
  clientExtensionResults: z.looseObject({}).meta({ description: 'The extensions’ outputs, as the browser gave them' }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional().meta({ description: 'Built into the device, or a roaming key' }),
};

const registrationResponse = z
  .looseObject({
    ...credentialOutline,
    response: z
      .looseObject({
        clientDataJSON: base64url.max(10_000).meta({ description: 'The client data the authenticator signed over, base64url' }),
        attestationObject: base64url.max(100_000).meta({ description: 'The new credential and its public key, base64url CBOR' }),
        transports: z.array(z.string().max(32)).max(10).optional().meta({ description: 'How the authenticator may be reached' }),
      })
      .meta({ description: 'The authenticator’s answer' }),
  })
  .meta({ description: 'What navigator.credentials.create() answered, in JSON (RegistrationResponseJSON)' });

const authenticationResponse = z
  .looseObject({
    ...credentialOutline,
    response: z
      .looseObject({
        clientDataJSON: base64url.max(10_000).meta({ description: 'The client data the authenticator signed over, base64url' }),
        authenticatorData: base64url.max(10_000).meta({ description: 'The authenticator’s data, its counter among it, base64url' }),
        signature: base64url.max(2_000).meta({ description: 'The signature over the authenticator data and the client data’s hash, base64url' }),
        userHandle: base64url.max(1_000).optional().meta({ description: 'The member the passkey was made for, base64url' }),
      })
      .meta({ description: 'The authenticator’s answer' }),
  })
  .meta({ description: 'What navigator.credentials.get() answered, in JSON (AuthenticationResponseJSON)' });

export const registerPasskeyBody = z
  .strictObject({
    response: registrationResponse,
    name: z.string().trim().min(1).max(64).optional().meta({ description: 'What the member calls it (“work laptop”); a dated name when absent' }),
  })
  .meta({
    description: 'The answer to the registration options, within five minutes of asking for them',
    example: {
      name: 'work laptop',
      response: {
        id: 'q2Kq7cBsT0iGQvLd3m9p1A',
        rawId: 'q2Kq7cBsT0iGQvLd3m9p1A',
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZQ', transports: ['internal'] },
      },
    },
  });

export const passkeySignInBody = z
  .strictObject({
    response: authenticationResponse,
    environment: environment.optional().meta({ description: 'The environment the session starts in; LIVE when absent' }),
  })
  .meta({
    description: 'The answer to the sign-in options, within five minutes of asking for them',
    example: {
      response: {
        id: 'q2Kq7cBsT0iGQvLd3m9p1A',
        rawId: 'q2Kq7cBsT0iGQvLd3m9p1A',
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
          authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2M',
          signature: 'MEUCIQDx',
        },
      },
    },
  });

export const creationOptions = z
  .looseObject({
    challenge: z.string().meta({ description: 'Single use, for five minutes' }),
    rp: z
      .looseObject({
        id: z.string().optional().meta({ description: 'The relying party id: the dashboard’s host' }),
        name: z.string().meta({ description: 'The name the authenticator shows' }),
      })
      .meta({ description: 'Who asks for the passkey' }),
    user: z
      .looseObject({
        id: z.string().meta({ description: 'The member’s opaque handle, base64url' }),
        name: z.string().meta({ description: 'The member’s e-mail address' }),
        displayName: z.string().meta({ description: 'What the authenticator shows for the member' }),
      })
      .meta({ description: 'The member the passkey is for' }),
    pubKeyCredParams: z
      .array(
        z.looseObject({
          alg: z.number().meta({ description: 'A COSE algorithm (-7 ES256, -257 RS256, …)' }),
          type: z.string().meta({ description: 'Always public-key' }),
        }),
      )
      .meta({ description: 'The key types the node takes, preferred first' }),
  })
  .meta({ id: 'PasskeyCreationOptions', description: 'PublicKeyCredentialCreationOptionsJSON: hand it to navigator.credentials.create() (startRegistration)' });

export const requestOptions = z
  .looseObject({
    challenge: z.string().meta({ description: 'Single use, for five minutes' }),
    rpId: z.string().optional().meta({ description: 'The relying party id: the dashboard’s host' }),
  })
  .meta({ id: 'PasskeyRequestOptions', description: 'PublicKeyCredentialRequestOptionsJSON: hand it to navigator.credentials.get() (startAuthentication)' });

export const passkey = z
  .object({
    passkeyId: z.string().meta({ description: 'Its WebAuthn credential id, base64url' }),
    name: z.string().meta({ description: 'What the member calls it' }),
    transports: z.array(z.string()).meta({ description: 'How the authenticator said it may be reached (internal, hybrid, usb, …)' }),
    createdAt: isoTime,
    lastUsedAt: isoTime.nullable().meta({ description: 'Its last sign-in; null before the first' }),
  })
  .meta({ id: 'DashboardPasskey', description: 'A passkey of the signed-in member (its public key is never shown)' });

export const passkeyList = z
  .object({ passkeys: z.array(passkey).meta({ description: 'Oldest first' }) })
  .meta({ id: 'DashboardPasskeyList', description: 'The signed-in member’s passkeys, oldest first' });

export const passkeyRemoved = z
  .object({ passkeyId: z.string().meta({ description: 'The passkey removed' }), removedAt: isoTime })
  .meta({ id: 'DashboardPasskeyRemoved', description: 'The passkey no longer signs in' });

export const passkeyRefusal = z.object({
  reason: z
    .enum(['CHALLENGE_INVALID', 'CHALLENGE_EXPIRED', 'UNKNOWN_CREDENTIAL', 'SIGNATURE_INVALID', 'COUNTER_REGRESSED'])
    .meta({ description: 'Why the passkey did not sign in' }),
});

export const registrationRefusal = z.object({
  reason: z.enum(['CHALLENGE_INVALID', 'CHALLENGE_EXPIRED', 'VERIFICATION_FAILED']).meta({ description: 'Why the passkey was not registered' }),
});
