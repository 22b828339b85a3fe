/**
 * The payout customer's sign-in code as an e-mail, through the node's mailer (SMTP_URL, or the
 * local mail catcher whose messages GET /dev/mail lists on `npm start`). The code is in the
 * message only: never in a log line.
 */
import type { Mailer } from '../actors/adapters/mail/index.js';
import type { SignInCodeMessage, SignInMail } from '../gateway/cashout/sign-in-mail.js';

export function signInMailOf(mailer: Mailer): SignInMail {
  return {
    sendCode: (message: SignInCodeMessage) => mailer.send(codeMessage(message)),
  };
}

export function codeMessage({ to, code, expiresAt, merchantName }: SignInCodeMessage) {
  const from = merchantName ? `${merchantName}’s payout` : 'your payout';
  const until = new Date(expiresAt).toUTCString();
  return {
    to,
    subject: `${code} is your code to collect ${from}`,
    text: [
      `Your sign-in code is ${code}.`,
      '',
      `Enter it on the payout page to choose how you are paid. It works once, until ${until}.`,
      'If you did not ask for it, ignore this message: nobody can sign in without the code.',
    ].join('\n'),
  };
}
