/**
 * The node's mail side (deploy/mail.ts): with SMTP_URL the mail goes there and nothing is
 * caught; without it, outside production, the node's own catcher takes it through the same
 * SMTP client; in production without it nothing is caught and every send fails.
 */
import test from 'ava';
import { createLogger } from '../../actors/index.js';
import { MailUnavailable } from '../../actors/adapters/mail/index.js';
import { LocalMailCatcher } from '../../deploy/mail-catcher.js';
import { mailSide } from '../../deploy/mail.js';

const logger = createLogger({ level: 'silent' });
const MAIL_FROM = 'Peer payouts <payouts@localhost.invalid>';
const message = { to: 'ana@example.com', subject: 'Your code', text: '482913' };

test('without SMTP_URL outside production the node catches its mail on loopback and shows it in its inbox', async (t) => {
  for (const NODE_ENV of ['development', 'test'] as const) {
    const mail = await mailSide({ NODE_ENV, SMTP_URL: undefined, MAIL_FROM }, logger);
    t.teardown(() => mail.stop());
    await mail.mailer.send(message);
    t.like(mail.inbox?.messages(), [{ to: ['ana@example.com'], from: 'payouts@localhost.invalid', subject: 'Your code' }], NODE_ENV);
  }
});

test('with SMTP_URL the mail goes to that server and the node catches none', async (t) => {
  const elsewhere = await LocalMailCatcher.start();
  t.teardown(() => elsewhere.stop());
  for (const NODE_ENV of ['development', 'production'] as const) {
    const mail = await mailSide({ NODE_ENV, SMTP_URL: elsewhere.url, MAIL_FROM }, logger);
    t.teardown(() => mail.stop());
    t.is(mail.inbox, null);
    await mail.mailer.send({ ...message, subject: NODE_ENV });
  }
  t.deepEqual(
    elsewhere.messages().map((mail) => mail.subject),
    ['production', 'development'],
  );
});

test('in production without SMTP_URL nothing is caught and every send fails', async (t) => {
  const mail = await mailSide({ NODE_ENV: 'production', SMTP_URL: undefined, MAIL_FROM }, logger);
  t.teardown(() => mail.stop());
  t.is(mail.inbox, null);
  await t.throwsAsync(mail.mailer.send(message), { instanceOf: MailUnavailable, message: /no SMTP_URL/ });
});
