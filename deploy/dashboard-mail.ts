/**
 * The merchant dashboard's mail through the node's mailer (SMTP_URL, or the local mail catcher
 * GET /dev/mail lists on `npm start`): a sign-in code, and an invitation to a team. The code is
 * in the message only, never in a log line.
 */
import type { Mailer } from '../actors/adapters/mail/index.js';
import type { DashboardCodeMessage, DashboardInvitationMessage, DashboardMail } from '../gateway/dashboard/dashboard-mail.js';

export function dashboardMailOf(mailer: Mailer): DashboardMail {
  return {
    sendCode: (message) => mailer.send(dashboardCodeMessage(message)),
    sendInvitation: (message) => mailer.send(invitationMessage(message)),
  };
}

export function dashboardCodeMessage({ to, code, expiresAt }: DashboardCodeMessage) {
  return {
    to,
    subject: `${code} is your merchant dashboard sign-in code`,
    text: [
      `Your sign-in code is ${code}.`,
      '',
      `It works once, until ${new Date(expiresAt).toUTCString()}.`,
      'If you did not ask for it, ignore this message: nobody can sign in without the code.',
    ].join('\n'),
  };
}

export function invitationMessage({ to, merchantName, role, invitedBy }: DashboardInvitationMessage) {
  return {
    to,
    subject: `You are invited to ${merchantName}’s merchant dashboard`,
    text: [
      `${invitedBy} added you to ${merchantName}’s team as ${role.toLowerCase()}.`,
      '',
      'Sign in to the dashboard with this address: a one-time code is e-mailed to you each time.',
    ].join('\n'),
  };
}
