/**
 * The mail a development node sends, caught on this machine instead of delivered: an SMTP
 * server on a free loopback port, no authentication and no TLS (nothing leaves loopback),
 * keeping the newest messages in memory for GET /dev/mail. The node's SmtpMailer is pointed
 * at it, so the embedded default sends through the same SMTP client production does.
 */
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import PostalMime from 'postal-mime';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { CaughtMail, MailInbox } from '../gateway/dev/mail-inbox.js';

export interface LocalMailCatcherOptions {
  /** How many of the newest messages are kept; 200 unless set. */
  keep?: number;
  /** When a message arrived, ISO 8601; the wall clock unless set. */
  now?: () => string;
  /** Where a failed SMTP session is reported (a client that went away mid-message); unreported unless set. */
  logger?: Logger;
}

const KEEP = 200;
/** A sign-in code is a few hundred bytes; a larger message is refused rather than held, KEEP times, in memory. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
const STOP_GRACE_MS = 1_000;

export class LocalMailCatcher implements MailInbox {
  readonly #server: SMTPServer;
  readonly #keep: number;
  readonly #now: () => string;
  /** Newest first. */
  #caught: CaughtMail[] = [];
  #count = 0;
  #port = 0;
  #stopped: Promise<void> | undefined;

  private constructor(options: LocalMailCatcherOptions) {
    this.#keep = options.keep ?? KEEP;
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#server = new SMTPServer({
      banner: 'Peer platform mail catcher: nothing is delivered',
      secure: false,
      disabledCommands: ['AUTH', 'STARTTLS'],
      authOptional: true,
      size: MAX_MESSAGE_BYTES,
      // A reverse lookup of 127.0.0.1 would ask DNS: nothing here leaves the machine.
      disableReverseLookup: true,
      closeTimeout: STOP_GRACE_MS,
      logger: false,
      onData: (stream, session, callback) => this.#take(stream, session, callback),
    });
    this.#server.on('error', (error) => options.logger?.warn({ err: error }, 'mail catcher: an SMTP session failed'));
  }

  static async start(options: LocalMailCatcherOptions = {}): Promise<LocalMailCatcher> {
    const catcher = new LocalMailCatcher(options);
    await new Promise<void>((resolve, reject) => {
      const listening = catcher.#server.listen(0, '127.0.0.1', () => {
        listening.off('error', reject);
        catcher.#port = (listening.address() as AddressInfo).port;
        resolve();
      });
      listening.once('error', reject);
    });
    return catcher;
  }

  /** Where an SmtpMailer sends to reach it. */
  get url(): string {
    return `smtp://127.0.0.1:${this.#port}`;
  }

  messages(): CaughtMail[] {
    return [...this.#caught];
  }

  stop(): Promise<void> {
    this.#stopped ??= new Promise((resolve) => this.#server.close(() => resolve()));
    return this.#stopped;
  }

  #take(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null) => void): void {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => {
      if (!stream.sizeExceeded) chunks.push(chunk);
    });
    stream.on('end', () => {
      if (stream.sizeExceeded) {
        callback(Object.assign(new Error(`message over ${MAX_MESSAGE_BYTES} bytes`), { responseCode: 552 }));
        return;
      }
      PostalMime.parse(Buffer.concat(chunks)).then(
        (email) => {
          this.#caught = [
            Object.freeze({
              id: `mail_${++this.#count}`,
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: email.subject ?? '',
              // The line break SMTP ends every body with is the transport's, not the sender's.
              text: (email.text ?? '').replace(/\r?\n$/, ''),
              receivedAt: this.#now(),
            }),
            ...this.#caught,
          ].slice(0, this.#keep);
          callback();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }
}
