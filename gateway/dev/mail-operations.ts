/**
 * GET /dev/mail and GET /dev/mail/messages: the mail a development node caught (mail-inbox.ts),
 * as a page a person reads a sign-in code on and as the envelope a test or script reads.
 * A node that sends through SMTP_URL has nothing to show: 404 MAIL_INBOX_UNAVAILABLE.
 */
import { z } from 'zod';
import { ApiError, reply } from '../envelope.js';
import { failure, standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { sendShell } from '../page-routes.js';
import { caughtMailList, MAIL_INBOX_UNAVAILABLE, type MailInbox } from './mail-inbox.js';
import { MAIL_PAGE_CSP, mailPage } from './mail-page.js';

export interface MailDependencies {
  /** The mail the node caught; null where it sends through SMTP_URL. */
  mailInbox: MailInbox | null;
}

export function mailOperations(): Operation<MailDependencies>[] {
  return [mailPageOperation, mailListOperation];
}

const NO_INBOX = 'This node sends its mail through SMTP_URL, so it catches none';

function inboxOf(deps: MailDependencies): MailInbox {
  if (!deps.mailInbox) throw new ApiError(404, NO_INBOX, MAIL_INBOX_UNAVAILABLE.code);
  return deps.mailInbox;
}

const mailPageOperation = defineOperation({
  method: 'get',
  path: '/dev/mail',
  operationId: 'getCaughtMailPage',
  tags: ['Development'],
  summary: 'Read the mail this node caught (development only)',
  description:
    'An HTML page of the mail the node caught instead of sending, newest first: each message’s recipients, subject, time and text, such as the one-time code a payout customer signs in with. A node without SMTP_URL catches its mail on loopback; with SMTP_URL it sends it and this is a 404. Not the envelope. Development nodes only: it is not mounted in production.',
  guard: 'none',
  answers: standardAnswers({
    '200': { description: 'HTML', content: { 'text/html': { schema: z.string() } } },
    '404': failure(404, [MAIL_INBOX_UNAVAILABLE]),
  }),
  handle: (deps: MailDependencies) => (ctx) => {
    sendShell(ctx, MAIL_PAGE_CSP, mailPage(inboxOf(deps).messages()));
  },
});

const mailListOperation = defineOperation({
  method: 'get',
  path: '/dev/mail/messages',
  operationId: 'listCaughtMail',
  tags: ['Development'],
  summary: 'List the mail this node caught (development only)',
  description:
    'The messages GET /dev/mail shows, newest first, in the envelope. Development nodes only: it is not mounted in production, and a node that sends through SMTP_URL answers 404.',
  guard: 'none',
  answers: standardAnswers({
    '200': success(200, caughtMailList, 'The caught messages, newest first'),
    '404': failure(404, [MAIL_INBOX_UNAVAILABLE]),
  }),
  handle: (deps: MailDependencies) => (ctx) => {
    reply(ctx, 200, 'Caught mail', caughtMailList, { messages: inboxOf(deps).messages() });
  },
});
