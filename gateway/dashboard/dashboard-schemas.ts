/** The bodies and answers of the dashboard's sign-in and session routes (docs/dashboard-auth.md). */
import { z } from 'zod';
import { environment, isoTime, merchantId } from '../schemas/common.js';
import { memberEmail, memberRole } from './team-schemas.js';

export const requestCodeBody = z.strictObject({ email: memberEmail }).meta({ example: { email: 'owner@acme.example' } });

export const codeRequested = z
  .object({
    codeExpiresInSeconds: z.number().int().meta({ description: 'How long a code mailed now works: 600' }),
  })
  .meta({
    id: 'DashboardCodeRequested',
    description: 'The same answer for any address: a code was mailed only if the address is on a team, and the answer does not say',
  });

export const signInBody = z
  .strictObject({
    email: memberEmail,
    code: z
      .string()
      .regex(/^\d{6}$/, 'must be the 6 digits of the e-mailed code')
      .meta({ description: 'The 6-digit code e-mailed to the address' }),
    merchantId: merchantId
      .optional()
      .meta({ description: 'The business (its live account id) to sign in to; needed only when the address is on several teams' }),
    environment: environment.optional().meta({ description: 'The environment the session starts in; LIVE when absent' }),
  })
  .meta({ example: { email: 'owner@acme.example', code: '123456' } });

export const environmentBody = z
  .strictObject({ environment: environment.meta({ description: 'LIVE, or SANDBOX: the account the session acts on' }) })
  .meta({ example: { environment: 'SANDBOX' } });

export const dashboardSession = z
  .object({
    sessionId: z.string().meta({ description: 'The session’s id (dss_…): not the cookie, and opens nothing' }),
    userId: z.string().meta({ description: 'The signed-in member' }),
    email: z.string().meta({ description: 'The member’s address' }),
    role: memberRole,
    merchantId: z.string().meta({ description: 'The business: its live account’s id, which keeps the team and the audit log' }),
    merchantName: z.string().meta({ description: 'The business’s name' }),
    environment: environment.meta({ description: 'The environment the session acts on now' }),
    accountId: z.string().meta({ description: 'The merchant account of that environment: the live account or its sandbox twin' }),
    signedInAt: isoTime,
    lastSeenAt: isoTime.meta({ description: 'When the session was last used, to the minute' }),
    idleExpiresAt: isoTime.meta({ description: 'When the session ends unless used again: 30 minutes after lastSeenAt' }),
    expiresAt: isoTime.meta({ description: 'When the session ends however busy: 12 hours after signedInAt' }),
    csrfToken: z
      .string()
      .meta({ description: 'Send it in the x-csrf-token header of every call of this session that changes something; the same for the whole session' }),
  })
  .meta({ id: 'DashboardSession', description: 'A team member’s dashboard session' });

export const signedOut = z
  .object({ signedOutAt: isoTime.meta({ description: 'When the session ended' }) })
  .meta({ id: 'DashboardSignedOut', description: 'The session has ended and its cookie is cleared' });

export const sessionsRevoked = z
  .object({
    revokedSessions: z.number().int().meta({ description: 'How many open sessions of the member were ended, this one included' }),
    revokedAt: isoTime.meta({ description: 'When they were ended' }),
  })
  .meta({ id: 'DashboardSessionsRevoked', description: 'Every session of the member has ended and this one’s cookie is cleared' });

export const merchantChoice = z.object({
  merchants: z
    .array(
      z.object({
        merchantId: z.string().meta({ description: 'A business’s live account id, to send as merchantId' }),
        name: z.string().meta({ description: 'The business’s name' }),
      }),
    )
    .meta({ description: 'The businesses whose team has the address' }),
});

export const codeRefusal = z.object({
  reason: z.enum(['WRONG_CODE', 'CODE_EXPIRED', 'NO_CODE', 'CODE_USED', 'TOO_MANY_TRIES']).meta({ description: 'Why the code did not sign in' }),
});
