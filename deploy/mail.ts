/**
 * The node's mail: through the SMTP server of SMTP_URL when set; without it, outside
 * production, through a catcher of the node's own on loopback (mail-catcher.ts) whose
 * messages GET /dev/mail shows. Either way the mail goes through SmtpMailer. A production
 * node without SMTP_URL (the configuration allows it only with every payout rail off)
 * catches nothing: its mailer fails every send.
 */
import type { Logger } from 'pino';
import type { Config } from '../actors/index.js';
import { MailUnavailable, SmtpMailer, type Mailer } from '../actors/adapters/mail/index.js';
import type { MailInbox } from '../gateway/dev/mail-inbox.js';
import { LocalMailCatcher } from './mail-catcher.js';

export interface MailSide {
  mailer: Mailer;
  /** The mail the node caught instead of sending; null where it sends through SMTP_URL or sends none. */
  inbox: MailInbox | null;
  stop(): Promise<void>;
}

export async function mailSide(config: Pick<Config, 'NODE_ENV' | 'SMTP_URL' | 'MAIL_FROM'>, logger: Logger): Promise<MailSide> {
  if (config.SMTP_URL) return { mailer: new SmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM }), inbox: null, stop: async () => {} };
  if (config.NODE_ENV === 'production') {
    const mailer: Mailer = {
      send: async () => {
        throw new MailUnavailable('this node has no SMTP_URL: it sends no mail');
      },
    };
    return { mailer, inbox: null, stop: async () => {} };
  }
  const catcher = await LocalMailCatcher.start({ logger });
  logger.info({ smtp: catcher.url }, 'mail is caught on this machine, not sent: a development node shows it at GET /dev/mail');
  return { mailer: new SmtpMailer({ url: catcher.url, from: config.MAIL_FROM }), inbox: catcher, stop: () => catcher.stop() };
}
