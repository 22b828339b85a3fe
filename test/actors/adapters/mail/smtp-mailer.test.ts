/**
 * The SMTP client (actors/adapters/mail/smtp-mailer.ts) against a real SMTP server on
 * loopback, the node's own catcher: what it sends arrives whole, unicode included; a
 * server that is not there, or that never answers, is MailUnavailable within the bounded
 * time, with the client's error as its cause and no password in its message; and
 * credentials are never sent to a server that offers no TLS.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { MailUnavailable, SmtpMailer } from '../../../../actors/adapters/mail/index.js';
import { LocalMailCatcher } from '../../../../deploy/mail-catcher.js';

const FROM = 'Peer payouts <payouts@localhost.invalid>';

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A loopback server that takes connections and never says a word: no SMTP greeting ever comes. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('a message sent through the catcher arrives with its recipient, sender, subject and text, unicode included', async (t) => {
  const catcher = await LocalMailCatcher.start();
  t.teardown(() => catcher.stop());
  const mailer = new SmtpMailer({ url: catcher.url, from: FROM });
  const subject = 'Votre code de connexion · 🔐 Ünïcødé — 確認コード';
  const text = 'Your code is 482913.\nIt expires in 10 minutes. Ça marche: ñ, ü, 日本語.';
  await mailer.send({ to: 'ana@example.com', subject, text });
  const [caught, ...rest] = catcher.messages();
  t.deepEqual(rest, []);
  t.like(caught, { to: ['ana@example.com'], from: 'payouts@localhost.invalid', subject });
  t.is(caught!.text, text);

  await mailer.send({ to: 'bo@example.com', subject: 'second', text: 'plain', html: '<p>rich</p>' });
  t.deepEqual(
    catcher.messages().map((mail) => mail.subject),
    ['second', subject],
    'newest first',
  );
});

test('a closed port is MailUnavailable at once, keeping the client’s error as its cause and the password out of its message', async (t) => {
  const port = await closedPort();
  const mailer = new SmtpMailer({ url: `smtp://payouts:s3cret-pass@127.0.0.1:${port}`, from: FROM, timeoutMs: 5_000 });
  const started = Date.now();
  const error = await t.throwsAsync(mailer.send({ to: 'ana@example.com', subject: 'code', text: '1' }), { instanceOf: MailUnavailable });
  t.true(Date.now() - started < 2_000, `${Date.now() - started} ms`);
  t.is(error.code, 'MAIL_UNAVAILABLE');
  t.is(error.message, `the SMTP server at 127.0.0.1:${port} did not take the message (ESOCKET)`);
  t.true(error.cause instanceof Error);
  t.regex(String((error.cause as Error).message), /ECONNREFUSED/);
  t.false(JSON.stringify({ message: error.message, cause: String(error.cause) }).includes('s3cret-pass'));
});

test('a server that never greets is MailUnavailable once the bounded time has passed, not nodemailer’s default minutes', async (t) => {
  const silent = await silentServer();
  t.teardown(() => silent.close());
  const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${silent.port}`, from: FROM, timeoutMs: 150 });
  const started = Date.now();
  const error = await t.throwsAsync(mailer.send({ to: 'ana@example.com', subject: 'code', text: '1' }), { instanceOf: MailUnavailable });
  const took = Date.now() - started;
  t.true(took >= 100 && took < 3_000, `${took} ms`);
  t.regex(error.message, /\(ETIMEDOUT\)$/);
});

test('credentials are never sent in clear: to a server that offers no STARTTLS the send fails before AUTH, and nothing is delivered', async (t) => {
  const catcher = await LocalMailCatcher.start();
  t.teardown(() => catcher.stop());
  const mailer = new SmtpMailer({ url: catcher.url.replace('smtp://', 'smtp://payouts:s3cret-pass@'), from: FROM });
  const error = await t.throwsAsync(mailer.send({ to: 'ana@example.com', subject: 'code', text: '1' }), { instanceOf: MailUnavailable });
  t.false(error.message.includes('s3cret-pass'));
  t.deepEqual(catcher.messages(), []);
});
