/**
 * A business's dashboard users (docs/dashboard-auth.md). One list per business, kept on its
 * LIVE account: the sandbox twin is the same people looking at simulated money, so a second
 * list could only drift from the first. Pure rules the merchant machine and its kind share:
 * who may be added, and the one a business may never lose, its last Owner.
 */
export type MemberRole = 'OWNER' | 'MANAGER' | 'CASHIER';
export const MEMBER_ROLES: readonly MemberRole[] = ['OWNER', 'MANAGER', 'CASHIER'];

/** INVITED until the member's first sign-in, ACTIVE from then on. */
export type MemberStatus = 'INVITED' | 'ACTIVE';

export interface MerchantUser {
  userId: string;
  /** Lower-cased and trimmed: one address is one member. */
  email: string;
  role: MemberRole;
  status: MemberStatus;
  invitedAt: string;
  joinedAt: string | null;
  /** The member's passkeys (docs/dashboard-auth.md), a second way to sign in; absent: none. Not in the profile. */
  passkeys?: MemberPasskey[];
}

/** A WebAuthn credential a member registered: what a sign-in's assertion is checked against. */
export interface MemberPasskey {
  /** The credential's id, base64url: unique across every team. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter at the last sign-in; a lower or equal one (but 0 and 0) is a cloned key. */
  counter: number;
  transports: string[];
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export type TeamEvent =
  | { type: 'ADD_MEMBER'; userId: string; email: string; role: MemberRole; at: string }
  | { type: 'CHANGE_ROLE'; userId: string; role: MemberRole; at: string }
  | { type: 'REMOVE_MEMBER'; userId: string; at: string }
  | { type: 'MEMBER_SIGNED_IN'; userId: string; at: string }
  | { type: 'ADD_PASSKEY'; userId: string; passkey: Omit<MemberPasskey, 'lastUsedAt' | 'createdAt'>; at: string }
  | { type: 'USE_PASSKEY'; userId: string; credentialId: string; counter: number; at: string }
  | { type: 'REMOVE_PASSKEY'; userId: string; credentialId: string; at: string };

export type TeamRefusal = 'MEMBER_EXISTS' | 'MEMBER_NOT_FOUND' | 'LAST_OWNER' | 'TEAM_ON_LIVE_ACCOUNT' | 'PASSKEY_EXISTS' | 'PASSKEY_NOT_FOUND';

export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Why `event` cannot apply to `users`; null when it can. */
export function teamRefusal(users: readonly MerchantUser[], event: TeamEvent): TeamRefusal | null {
  if (event.type === 'ADD_MEMBER') return users.some((user) => user.email === normalEmail(event.email)) ? 'MEMBER_EXISTS' : null;
  const member = users.find((user) => user.userId === event.userId);
  if (!member) return 'MEMBER_NOT_FOUND';
  if (event.type === 'ADD_PASSKEY') {
    const taken = users.some((user) => user.passkeys?.some((passkey) => passkey.credentialId === event.passkey.credentialId));
    return taken ? 'PASSKEY_EXISTS' : null;
  }
  if (event.type === 'USE_PASSKEY' || event.type === 'REMOVE_PASSKEY') {
    return member.passkeys?.some((passkey) => passkey.credentialId === event.credentialId) ? null : 'PASSKEY_NOT_FOUND';
  }
  const losesOwner = event.type === 'REMOVE_MEMBER' || (event.type === 'CHANGE_ROLE' && event.role !== 'OWNER');
  // Invited owners count: a business whose only other Owner never signed in still has one who can.
  if (losesOwner && member.role === 'OWNER' && users.filter((user) => user.role === 'OWNER').length === 1) return 'LAST_OWNER';
  return null;
}

/** The list after `event`; unchanged where teamRefusal refuses it. */
export function applyTeamEvent(users: readonly MerchantUser[], event: TeamEvent): MerchantUser[] {
  if (teamRefusal(users, event) !== null) return [...users];
  switch (event.type) {
    case 'ADD_MEMBER':
      return [...users, { userId: event.userId, email: normalEmail(event.email), role: event.role, status: 'INVITED', invitedAt: event.at, joinedAt: null }];
    case 'CHANGE_ROLE':
      return users.map((user) => (user.userId === event.userId ? { ...user, role: event.role } : user));
    case 'REMOVE_MEMBER':
      return users.filter((user) => user.userId !== event.userId);
    case 'MEMBER_SIGNED_IN':
      return users.map((user) => (user.userId === event.userId && user.status === 'INVITED' ? { ...user, status: 'ACTIVE', joinedAt: event.at } : user));
    case 'ADD_PASSKEY':
      return withPasskeys(users, event.userId, (passkeys) => [...passkeys, { ...event.passkey, createdAt: event.at, lastUsedAt: null }]);
    case 'USE_PASSKEY':
      return withPasskeys(users, event.userId, (passkeys) =>
        passkeys.map((passkey) => (passkey.credentialId === event.credentialId ? { ...passkey, counter: event.counter, lastUsedAt: event.at } : passkey)),
      );
    case 'REMOVE_PASSKEY':
      return withPasskeys(users, event.userId, (passkeys) => passkeys.filter((passkey) => passkey.credentialId !== event.credentialId));
  }
}

function withPasskeys(users: readonly MerchantUser[], userId: string, change: (passkeys: MemberPasskey[]) => MemberPasskey[]): MerchantUser[] {
  return users.map((user) => (user.userId === userId ? { ...user, passkeys: change(user.passkeys ?? []) } : user));
}
