/**
 * What the dashboard mails: a team member's sign-in code, and an invitation to a new member.
 * The node gives the gateway this port over its mailer (real SMTP, or the local mail catcher
 * GET /dev/mail shows on `npm start`); tests catch the messages.
 */
export interface DashboardCodeMessage {
  to: string;
  code: string;
  expiresAt: string;
}

export interface DashboardInvitationMessage {
  to: string;
  merchantName: string;
  role: string;
  invitedBy: string;
}

export interface DashboardMail {
  /** Throws when the message could not be handed to the mail server. */
  sendCode(message: DashboardCodeMessage): Promise<void>;
  sendInvitation(message: DashboardInvitationMessage): Promise<void>;
}
