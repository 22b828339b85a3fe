/**
 * Mail over SMTP with nodemailer: one connection per message, each step bounded by
 * `timeoutMs`, so a server that is down or silent fails the send within that time instead
 * of holding the caller for nodemailer's default minutes. Every failure is MailUnavailable
 * with the client's error as its cause; its message names the server by host and port
 * only, so the URL's credentials never reach an error or a log line.
 */
import { createTransport, type Transporter } from 'nodemailer';
import { MailUnavailable, type MailMessage, type Mailer } from './mailer.js';

export interface SmtpMailerOptions {
  /** `smtp://[user:password@]host[:port]` (STARTTLS when offered; required with credentials) or `smtps://…` (TLS from the start). */
  url: string;
  /** The From header: an address, with a display name if wanted (`Peer payouts <payouts@example.com>`). */
  from: string;
  /** The longest each step may take: connecting, the greeting, and any silence after it. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export class SmtpMailer implements Mailer {
  readonly #transport: Transporter;
  readonly #from: string;
  /** host:port, for messages: never the URL, which may hold a password. */
  readonly #server: string;

  constructor(options: SmtpMailerOptions) {
    const url = smtpUrl(options.url);
    const secure = url.protocol === 'smtps:';
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = url.port ? Number(url.port) : secure ? 465 : 587;
    const user = decodeURIComponent(url.username);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#from = options.from;
    this.#server = `${url.hostname}:${port}`;
    this.#transport = createTransport({
      host,
      port,
      secure,
      ...(user ? { auth: { user, pass: decodeURIComponent(url.password) } } : {}),
      // Credentials never cross the wire in clear: without smtps, the server must offer STARTTLS.
      requireTLS: !secure && Boolean(user),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      dnsTimeout: timeoutMs,
      logger: false,
    });
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.#transport.sendMail({
        from: this.#from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
      });
    } catch (error) {
      // nodemailer's codes: ECONNECTION, ETIMEDOUT, EAUTH, ETLS, EENVELOPE (a refused sender or recipient), EMESSAGE…
      const code = (error as { code?: unknown }).code;
      throw new MailUnavailable(`the SMTP server at ${this.#server} did not take the message${typeof code === 'string' ? ` (${code})` : ''}`, { cause: error });
    }
  }
}

/** The URL parsed; a TypeError that does not repeat it (Node's own carries the input, password and all). */
function smtpUrl(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : null;
  if ((url?.protocol !== 'smtp:' && url?.protocol !== 'smtps:') || !url.hostname)
    throw new TypeError('the SMTP URL must be an smtp:// or smtps:// URL with a host');
  return url;
}
