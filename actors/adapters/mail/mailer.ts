/**
 * Mail the platform sends, as a port: a payout customer's sign-in code goes to the payout's
 * e-mail (document 2, Customer checkout). Its client is SMTP (smtp-mailer.ts); a node
 * without SMTP_URL points that client at a catcher of its own on loopback
 * (deploy/mail-catcher.ts), so development sends through the same code as production.
 */
import { PlatformError } from '../../errors/platform-error.js';

export interface MailMessage {
  /** One address, already checked by the caller (a payout's e-mail). */
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text`; the text part is always sent. */
  html?: string;
}

export interface Mailer {
  /** Resolves once the SMTP server took the message; rejects with MailUnavailable otherwise. */
  send(message: MailMessage): Promise<void>;
}

/**
 * The SMTP server could not be reached in time, or refused the message (its credentials,
 * the sender, the recipient): nothing was sent. The cause is the client's own error.
 */
export class MailUnavailable extends PlatformError {
  override readonly name = 'MailUnavailable';
  readonly code = 'MAIL_UNAVAILABLE';
}
