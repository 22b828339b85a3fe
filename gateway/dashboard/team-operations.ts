/**
 * The business's team, through an Owner's dashboard session (docs/dashboard-auth.md): list it,
 * invite a member by e-mail, change a member's role, remove a member (whose sessions end). Every
 * change is in the audit log. The team is the business's: the same from either environment.
 */
import { z } from 'zod';
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { sessionRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { isoTime } from '../schemas/common.js';
import { audited } from './audit-log.js';
import type { DashboardDependencies } from './dashboard-dependencies.js';
import { sessionOf } from './principal.js';
import { addMember, changeRole, removeMember } from './team.js';
import { inviteBody, merchantUser, roleBody, teamList, userPath } from './team-schemas.js';

const tags = ['Dashboard'];
const PATH = '/api/v1/merchants/me/users';
const ownerOnly = { code: 'ROLE_NOT_ALLOWED' as const, when: 'the signed-in member is not an Owner' };
const noMember = failure(404, [{ code: 'MEMBER_NOT_FOUND' }]);

const memberRemoved = z
  .object({
    userId: z.string().meta({ description: 'The member removed' }),
    removedAt: isoTime,
    revokedSessions: z.number().int().meta({ description: 'How many of the member’s open sessions ended with the removal' }),
  })
  .meta({ id: 'MemberRemoved', description: 'The member is off the team and signed out everywhere' });

/** The invite's handler leaves the new member's id here, for the audit entry recorded after it. */
type InvitedState = { invited?: string };
const invitedTarget = (state: unknown): Record<string, string> => {
  const { invited } = state as InvitedState;
  return invited ? { userId: invited } : {};
};

const listOperation = defineOperation({
  method: 'get',
  path: PATH,
  operationId: 'listTeamMembers',
  tags,
  summary: 'The business’s team',
  description: 'Any member may read it.',
  guard: 'session',
  answers: standardAnswers({ '200': success(200, teamList, 'The team'), ...sessionRefusals(false) }),
  handle: (deps: DashboardDependencies) => async (ctx) => {
    const business = await deps.accounts.byId(sessionOf(ctx).businessId);
    reply(ctx, 200, 'Team', teamList, { users: business?.profile.merchantUsers ?? [] });
  },
});

const inviteOperation = defineOperation({
  method: 'post',
  path: PATH,
  operationId: 'inviteTeamMember',
  tags,
  summary: 'Invite a member by e-mail (Owner)',
  description: 'The member is INVITED, and is mailed an invitation; the first sign-in makes them ACTIVE.',
  guard: 'session',
  roles: ['OWNER'],
  request: { body: inviteBody },
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'inviteTeamMember', (ctx) => invitedTarget(ctx.state))],
  answers: standardAnswers(
    {
      '201': success(201, merchantUser, 'Invited'),
      '400': invalid('the body'),
      ...sessionRefusals(true, [ownerOnly]),
      '409': failure(409, [{ code: 'MEMBER_EXISTS' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { body }) => {
      const owner = sessionOf(ctx);
      const member = await addMember(deps.system, owner.businessId, body.email, body.role, deps.now());
      (ctx.state as InvitedState).invited = member.userId;
      const business = await deps.accounts.byId(owner.businessId);
      await deps.mail
        .sendInvitation({ to: member.email, merchantName: business?.profile.name ?? '', role: member.role, invitedBy: owner.email })
        .catch((error: unknown) => ctx.state.log.warn({ err: error }, 'a team invitation could not be mailed; the member can still sign in'));
      reply(ctx, 201, 'Member invited', merchantUser, member);
    },
});

const changeRoleOperation = defineOperation({
  method: 'patch',
  path: `${PATH}/:userId`,
  operationId: 'changeTeamMemberRole',
  tags,
  summary: 'Change a member’s role (Owner)',
  description: 'Applies to the member’s open sessions from their next request.',
  guard: 'session',
  roles: ['OWNER'],
  request: { path: userPath, body: roleBody },
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'changeTeamMemberRole')],
  answers: standardAnswers(
    {
      '200': success(200, merchantUser, 'The member, with the new role'),
      '400': invalid('the body, or userId is not a user id'),
      ...sessionRefusals(true, [ownerOnly]),
      '404': noMember,
      '409': failure(409, [{ code: 'LAST_OWNER' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { path, body }) => {
      reply(ctx, 200, 'Role changed', merchantUser, await changeRole(deps.system, sessionOf(ctx).businessId, path.userId, body.role, deps.now()));
    },
});

const removeOperation = defineOperation({
  method: 'delete',
  path: `${PATH}/:userId`,
  operationId: 'removeTeamMember',
  tags,
  summary: 'Remove a member (Owner)',
  description: 'Every session of the member ends. The last Owner cannot be removed; an Owner may remove themself while another Owner remains.',
  guard: 'session',
  roles: ['OWNER'],
  request: { path: userPath },
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'removeTeamMember')],
  answers: standardAnswers(
    {
      '200': success(200, memberRemoved, 'Removed'),
      '400': invalid('userId is not a user id'),
      ...sessionRefusals(true, [ownerOnly]),
      '404': noMember,
      '409': failure(409, [{ code: 'LAST_OWNER' }]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { path }) => {
      const removedAt = deps.now();
      await removeMember(deps.system, sessionOf(ctx).businessId, path.userId, removedAt);
      const revokedSessions = await deps.auth.end({ userId: path.userId }, 'MEMBER_REMOVED');
      reply(ctx, 200, 'Member removed', memberRemoved, { userId: path.userId, removedAt, revokedSessions });
    },
});

export function teamOperations(): Operation<DashboardDependencies>[] {
  return [listOperation, inviteOperation, changeRoleOperation, removeOperation];
}
