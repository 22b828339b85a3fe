/** The team member (MerchantUser) the profile lists and the team routes answer, and the bodies that change the team (docs/dashboard-auth.md). */
import { z } from 'zod';
import { MEMBER_ROLES } from '../../machines/merchant/index.js';
import { resourceId } from '../schemas/common.js';

export const USER_ID_PREFIX = 'usr';

export const memberRole = z.enum(MEMBER_ROLES as ['OWNER', 'MANAGER', 'CASHIER']).meta({
  id: 'MemberRole',
  description: 'OWNER: everything, the team, the API key and the audit log included; MANAGER: orders, remediation and webhooks; CASHIER: reads only',
});

export const memberEmail = z.string().trim().toLowerCase().max(254).email().meta({ description: 'The member’s e-mail address, lower-cased' });

export const merchantUser = z
  .object({
    userId: z.string().meta({ description: 'The member’s id (usr_…): stays when the role changes' }),
    email: z.string().meta({ description: 'Where sign-in codes go; lower-cased' }),
    role: memberRole,
    status: z.enum(['INVITED', 'ACTIVE']).meta({ description: 'INVITED until the member first signs in, then ACTIVE' }),
    invitedAt: z.string().meta({ description: 'When the member was added (ISO 8601)' }),
    joinedAt: z.string().nullable().meta({ description: 'When the member first signed in; null while INVITED' }),
  })
  .meta({ id: 'MerchantUser', description: 'A member of the business’s dashboard team, shared by its live and sandbox accounts' });

export const merchantUsers = z.array(merchantUser).meta({ description: 'The business’s dashboard team, shared by its live and sandbox accounts' });

export const teamList = z.object({ users: merchantUsers }).meta({ id: 'TeamList', description: 'The team' });

export const userPath = z.strictObject({ userId: resourceId(USER_ID_PREFIX, 'a team member’s user') });

export const inviteBody = z.strictObject({ email: memberEmail, role: memberRole }).meta({ example: { email: 'manager@acme.example', role: 'MANAGER' } });

export const roleBody = z.strictObject({ role: memberRole }).meta({ example: { role: 'CASHIER' } });

export const addOwnerBody = z.strictObject({ email: memberEmail }).meta({ example: { email: 'owner@acme.example' } });
