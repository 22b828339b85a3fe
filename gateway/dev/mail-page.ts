/**
 * GET /dev/mail's HTML: the caught messages, newest first, each with its recipients,
 * subject, time and text. Everything a message brings is escaped, since whoever sent it
 * wrote it; the page loads nothing, runs no script, and its one inline style is allowed by
 * its hash alone.
 */
import { createHash } from 'node:crypto';
import type { CaughtMail } from './mail-inbox.js';

const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;color:#1b1f24;max-width:52rem;margin:2rem auto;padding:0 1rem}' +
  'article{border-top:1px solid #d0d7de;padding:1rem 0}h2{font-size:1.1rem;margin:0 0 .25rem}' +
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:0 1rem;margin:0 0 .5rem}dt{color:#57606a}dd{margin:0}' +
  'pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;padding:.75rem;border-radius:6px}';

export const MAIL_PAGE_CSP = [
  "default-src 'none'",
  // The page's empty icon, so a browser does not ask for /favicon.ico.
  'img-src data:',
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function mailPage(messages: CaughtMail[]): string {
  const list =
    messages.length === 0
      ? '<p>No mail caught yet.</p>'
      : messages
          .map(
            (mail) => `<article>
<h2>${escapeHtml(mail.subject) || '(no subject)'}</h2>
<dl>
<dt>To</dt><dd>${escapeHtml(mail.to.join(', '))}</dd>
<dt>From</dt><dd>${escapeHtml(mail.from)}</dd>
<dt>Received</dt><dd><time datetime="${escapeHtml(mail.receivedAt)}">${escapeHtml(mail.receivedAt)}</time></dd>
</dl>
<pre>${escapeHtml(mail.text)}</pre>
</article>`,
          )
          .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Caught mail · development node</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Caught mail</h1>
<p>What this node mailed, such as a payout customer’s sign-in code, caught on this machine instead of sent: newest first, the last 200 kept in memory. Reload for new mail; the same list is JSON at <a href="/dev/mail/messages">/dev/mail/messages</a>.</p>
${list}
</main>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
