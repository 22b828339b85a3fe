/**
 * The commands that change a business's team, on its LIVE account (machines/merchant/team.ts
 * holds the rules): add a member (the admin API's first Owner, or an Owner's invitation),
 * change a role, remove a member, whose sessions end with the removal.
 */
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { normalEmail, type MemberRole, type MerchantUser } from '../../machines/merchant/index.js';
import { newId } from '../ids.js';
import { USER_ID_PREFIX } from './team-schemas.js';

export async function addMember(system: ActorSystem, businessId: string, email: string, role: MemberRole, at: string): Promise<MerchantUser> {
  const userId = newId(USER_ID_PREFIX);
  const profile = await system.ask(merchantKind, businessId, { type: 'ADD_MEMBER', userId, email: normalEmail(email), role, at });
  return profile.merchantUsers.find((user) => user.userId === userId)!;
}

export async function changeRole(system: ActorSystem, businessId: string, userId: string, role: MemberRole, at: string): Promise<MerchantUser> {
  const profile = await system.ask(merchantKind, businessId, { type: 'CHANGE_ROLE', userId, role, at });
  return profile.merchantUsers.find((user) => user.userId === userId)!;
}

export async function removeMember(system: ActorSystem, businessId: string, userId: string, at: string): Promise<void> {
  await system.ask(merchantKind, businessId, { type: 'REMOVE_MEMBER', userId, at });
}
