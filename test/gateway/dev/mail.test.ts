/**
 * GET /dev/mail and GET /dev/mail/messages (gateway/dev/mail-operations.ts): a development
 * node shows the mail its mailer sent, caught on loopback, as a page with everything the
 * message brought escaped and as the envelope; a node that sends through SMTP_URL has no
 * inbox to show (404 MAIL_INBOX_UNAVAILABLE); a production node mounts neither route.
 */
import test from 'ava';
import { MailUnavailable } from '../../../actors/adapters/mail/index.js';
import { LocalMailCatcher } from '../../../deploy/mail-catcher.js';
import { notFound, withGateway } from '../../support/gateway.js';

const PAGE_CSP_START = "default-src 'none'; img-src data:; style-src 'sha256-";

test('a message the node mails shows on the page and in the list, newest first, with every part of it escaped', (t) =>
  withGateway(async (gateway) => {
    const empty = await gateway.request('GET', '/dev/mail');
    t.is(empty.status, 200);
    t.true(String(empty.body).includes('No mail caught yet.'));
    t.deepEqual((await gateway.request('GET', '/dev/mail/messages')).body.responseObject, { messages: [] });

    const hostile = `<script>alert("x")</script> & 'quoted'`;
    await gateway.node.mail.mailer.send({ to: 'ana@example.com', subject: 'Your sign-in code', text: 'Your code is 482913.' });
    await gateway.node.mail.mailer.send({ to: 'bo@example.com', subject: hostile, text: `<img src=x onerror=alert(1)>\ncode 771204` });

    const list = await gateway.request('GET', '/dev/mail/messages');
    t.is(list.status, 200);
    t.like(list.body, { success: true, message: 'Caught mail', statusCode: 200 });
    const messages = list.body.responseObject.messages;
    t.like(messages, [
      { to: ['bo@example.com'], from: 'payouts@localhost.invalid', subject: hostile },
      { to: ['ana@example.com'], subject: 'Your sign-in code', text: 'Your code is 482913.' },
    ]);

    const page = await gateway.request('GET', '/dev/mail');
    t.is(page.status, 200);
    t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
    t.is(page.headers.get('cache-control'), 'no-store');
    t.true(page.headers.get('content-security-policy')?.startsWith(PAGE_CSP_START), page.headers.get('content-security-policy') ?? '');
    const html = String(page.body);
    t.true(html.includes('<h2>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</h2>'));
    t.true(html.includes('<pre>&lt;img src=x onerror=alert(1)&gt;\ncode 771204</pre>'));
    t.true(html.includes('<dd>ana@example.com</dd>'));
    t.true(html.includes(`<time datetime="${messages[0].receivedAt}">`));
    t.false(html.includes('<script'), 'the page runs no script, the message’s least of all');
    t.false(html.includes('<img'));
    t.true(html.indexOf('771204') < html.indexOf('482913'), 'newest first');
    // Nothing it loads comes from anywhere: no script, no stylesheet, only its empty icon and its own list.
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]*)"/g)) t.true(url === 'data:,' || url === '/dev/mail/messages', url);
  }));

test('a node that sends through SMTP_URL catches nothing: the mail reaches that server and both routes answer 404 MAIL_INBOX_UNAVAILABLE', async (t) => {
  const server = await LocalMailCatcher.start();
  t.teardown(() => server.stop());
  await withGateway(
    async (gateway) => {
      t.is(gateway.node.mail.inbox, null);
      await gateway.node.mail.mailer.send({ to: 'ana@example.com', subject: 'Your sign-in code', text: '482913' });
      t.like(server.messages(), [{ to: ['ana@example.com'], subject: 'Your sign-in code' }]);
      for (const path of ['/dev/mail', '/dev/mail/messages']) {
        const answer = await gateway.request('GET', path);
        t.is(answer.status, 404, path);
        t.deepEqual(
          answer.body,
          {
            success: false,
            message: 'This node sends its mail through SMTP_URL, so it catches none',
            responseObject: null,
            statusCode: 404,
            errorCode: 'MAIL_INBOX_UNAVAILABLE',
          },
          path,
        );
      }
    },
    { SMTP_URL: server.url },
  );
});

test('a production node mounts neither route nor documents them, and without SMTP_URL it mails nothing', (t) =>
  withGateway(
    async (gateway) => {
      for (const path of ['/dev/mail', '/dev/mail/messages']) {
        const answer = await gateway.request('GET', path);
        t.is(answer.status, 404, path);
        t.deepEqual(answer.body, notFound, path);
      }
      const document = (await gateway.request('GET', '/api/v1/openapi.json')).body as unknown as { paths: Record<string, unknown> };
      t.false('/dev/mail' in document.paths);
      t.false('/dev/mail/messages' in document.paths);
      t.is(gateway.node.mail.inbox, null);
      await t.throwsAsync(gateway.node.mail.mailer.send({ to: 'ana@example.com', subject: 'code', text: '1' }), { instanceOf: MailUnavailable });
    },
    { NODE_ENV: 'production' },
  ));
