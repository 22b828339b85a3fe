/**
 * The node's own SMTP server for development (deploy/mail-catcher.ts): on loopback, it keeps
 * the newest messages only, stamps each with its clock, refuses a message too large to hold,
 * and once stopped takes nothing more.
 */
import test from 'ava';
import { MailUnavailable, SmtpMailer } from '../../actors/adapters/mail/index.js';
import { LocalMailCatcher } from '../../deploy/mail-catcher.js';

const FROM = 'payouts@localhost.invalid';

test('it listens on loopback and keeps the newest messages only, newest first, stamped by its clock', async (t) => {
  let tick = 0;
  const catcher = await LocalMailCatcher.start({ keep: 3, now: () => new Date(Date.UTC(2026, 10, 23, 12, 0, tick++)).toISOString() });
  t.teardown(() => catcher.stop());
  t.regex(catcher.url, /^smtp:\/\/127\.0\.0\.1:\d+$/);
  const mailer = new SmtpMailer({ url: catcher.url, from: FROM });
  for (const n of [1, 2, 3, 4, 5]) await mailer.send({ to: `customer${n}@example.com`, subject: `message ${n}`, text: `text ${n}` });
  const kept = catcher.messages();
  t.deepEqual(
    kept.map((mail) => [mail.subject, mail.to, mail.receivedAt]),
    [
      ['message 5', ['customer5@example.com'], '2026-11-23T12:00:04.000Z'],
      ['message 4', ['customer4@example.com'], '2026-11-23T12:00:03.000Z'],
      ['message 3', ['customer3@example.com'], '2026-11-23T12:00:02.000Z'],
    ],
  );
  t.is(new Set(kept.map((mail) => mail.id)).size, 3, 'each has an id of its own');
  kept.pop();
  t.is(catcher.messages().length, 3, 'what it answers is a copy');
});

test('a message over a mebibyte is refused, not held', async (t) => {
  const catcher = await LocalMailCatcher.start();
  t.teardown(() => catcher.stop());
  const mailer = new SmtpMailer({ url: catcher.url, from: FROM });
  const error = await t.throwsAsync(mailer.send({ to: 'ana@example.com', subject: 'big', text: 'x'.repeat(1_100_000) }), { instanceOf: MailUnavailable });
  t.regex(error.message, /did not take the message/);
  t.deepEqual(catcher.messages(), []);
});

test('once stopped it takes nothing more, and stopping again is harmless', async (t) => {
  const catcher = await LocalMailCatcher.start();
  const mailer = new SmtpMailer({ url: catcher.url, from: FROM });
  await catcher.stop();
  await catcher.stop();
  await t.throwsAsync(mailer.send({ to: 'ana@example.com', subject: 'late', text: '1' }), { instanceOf: MailUnavailable });
});
