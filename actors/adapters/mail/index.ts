/**
 * actors/adapters/mail: the mail the platform sends (a payout customer's sign-in code), as a
 * port, with its SMTP client. Its local stand-in is an SMTP server of the node's own,
 * deploy/mail-catcher.ts, reached through the same client.
 */
export { MailUnavailable } from './mailer.js';
export type { MailMessage, Mailer } from './mailer.js';
export { SmtpMailer } from './smtp-mailer.js';
export type { SmtpMailerOptions } from './smtp-mailer.js';
