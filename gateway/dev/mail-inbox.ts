/**
 * Development only: the mail a node without SMTP_URL caught instead of sending, so a person
 * on `npm start` can read what the platform mailed (a payout customer's sign-in code). The
 * node hands the gateway this port over its local catcher (deploy/mail-catcher.ts); a node
 * that sends through SMTP_URL has none.
 */
import { z } from 'zod';

export const caughtMail = z
  .object({
    id: z.string().meta({ description: 'The catcher’s id of the message', example: 'mail_1' }),
    to: z.array(z.string()).meta({ description: 'The recipients the SMTP client named', example: ['ana@example.com'] }),
    from: z.string().meta({ description: 'The sender the SMTP client named', example: 'payouts@localhost.invalid' }),
    subject: z.string().meta({ description: 'The Subject header, decoded', example: 'Your sign-in code' }),
    text: z.string().meta({ description: 'The plain-text part, decoded; empty when the message had none' }),
    receivedAt: z.string().meta({ description: 'When the catcher took it, ISO 8601', example: '2026-11-23T12:00:00.000Z' }),
  })
  .meta({ id: 'CaughtMail' });

export const caughtMailList = z
  .object({
    messages: z.array(caughtMail).meta({ description: 'The messages caught, newest first; the catcher keeps the last 200' }),
  })
  .meta({ id: 'CaughtMailList' });

export type CaughtMail = z.infer<typeof caughtMail>;

export interface MailInbox {
  /** Newest first. */
  messages(): CaughtMail[];
}

export const MAIL_INBOX_UNAVAILABLE = {
  code: 'MAIL_INBOX_UNAVAILABLE',
  when: 'the node sends its mail through SMTP_URL, so it catches none to show',
} as const;
