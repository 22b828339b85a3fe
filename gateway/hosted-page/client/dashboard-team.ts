/**
 * The business's team, one list for both environments: every member reads it; an Owner invites
 * (the invitation is mailed), changes roles and removes members (which ends their sessions).
 * The last Owner stays: the server refuses with LAST_OWNER, shown in its words.
 */
import type { Member, Role } from './dashboard-api.js';
import { badge, confirmButton, errorBox, listTable } from './dashboard-ui.js';
import type { View, ViewContext } from './dashboard-view.js';
import { ROLE_NAMES, when } from './dashboard-words.js';
import { h } from './dom.js';

const ROLES: Role[] = ['OWNER', 'MANAGER', 'CASHIER'];

export const teamView: View = async (context) => {
  const { users } = await context.api.team();
  const owner = context.session.role === 'OWNER';
  const problem = h('div', { 'aria-live': 'polite' });
  return [
    h('h1', {}, 'Team'),
    problem,
    listTable(
      'Members',
      ['Member', 'Role', 'Status', 'Joined', ...(owner ? [''] : [])],
      users.map((member) => [
        member.email,
        owner ? roleSelect(context, member, problem) : ROLE_NAMES[member.role],
        badge(member.status),
        member.joinedAt ? when(member.joinedAt) : `Invited ${when(member.invitedAt)}`,
        ...(owner ? [removeButton(context, member)] : []),
      ]),
      'Nobody yet.',
    ),
    owner ? inviteForm(context) : h('p', { class: 'hint' }, 'Only an Owner may invite, re-role or remove members.'),
  ];
};

function roleSelect(context: ViewContext, member: Member, problem: HTMLElement): HTMLElement {
  const select = h(
    'select',
    { 'aria-label': `Role of ${member.email}` },
    ...ROLES.map((role) => h('option', { value: role, selected: role === member.role }, ROLE_NAMES[role])),
  );
  select.addEventListener('change', async () => {
    try {
      await context.api.changeRole(member.userId, select.value as Role);
      context.reload();
    } catch (error) {
      select.value = member.role;
      problem.replaceChildren(errorBox(error));
    }
  });
  return select;
}

function removeButton(context: ViewContext, member: Member): HTMLElement {
  return confirmButton({
    label: 'Remove',
    question: `Remove ${member.email}? Their open sessions end now.`,
    confirm: 'Yes, remove',
    keep: 'Keep',
    act: async () => {
      await context.api.removeMember(member.userId);
      context.reload();
    },
  });
}

function inviteForm(context: ViewContext): HTMLElement {
  const email = h('input', { id: 'invite-email', type: 'email', required: true, autocomplete: 'off' });
  const role = h('select', { id: 'invite-role' }, ...ROLES.map((value) => h('option', { value, selected: value === 'MANAGER' }, ROLE_NAMES[value])));
  const outcome = h('div', { 'aria-live': 'polite' });
  return h(
    'form',
    {
      class: 'panel stack',
      onsubmit: async (event: Event) => {
        event.preventDefault();
        try {
          await context.api.invite(email.value.trim(), role.value as Role);
          context.reload();
        } catch (error) {
          outcome.replaceChildren(errorBox(error));
        }
      },
    },
    h('h2', {}, 'Invite a member'),
    h('label', { for: 'invite-email' }, 'E-mail'),
    email,
    h('label', { for: 'invite-role' }, 'Role'),
    role,
    h('button', { type: 'submit', class: 'primary' }, 'Send invitation'),
    outcome,
  );
}
