/**
 * The platforms' dispute e-mails, for the embedded default and the tests: messages in
 * Venmo's and PayPal's wording, DKIM-signed by a key per domain made at start, and a
 * DNS resolver that publishes those keys, standing in for the platforms' TXT records.
 */
import { generateKeyPairSync } from 'node:crypto';
import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import type { DNSResolver } from 'mailauth';

const SELECTOR = 'sim2026';

export interface DisputeMailOptions {
  platform: 'venmo' | 'paypal';
  paymentId: string;
  disputeId: string;
  date: Date;
  to?: string;
}

export class DisputeMailer {
  readonly #keys = new Map<string, { privateKey: string; publicKey: string }>();

  constructor(domains: string[] = ['venmo.com', 'paypal.com']) {
    for (const domain of domains) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      this.#keys.set(domain, {
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      });
    }
  }

  /** Answers TXT lookups of `<selector>._domainkey.<domain>` for the keys it signs with, and nothing else. */
  readonly resolver: DNSResolver = async (name, rrtype) => {
    const match = new RegExp(`^${SELECTOR}\\._domainkey\\.(.+)$`).exec(name.toLowerCase());
    const key = match ? this.#keys.get(match[1]!) : undefined;
    if (rrtype !== 'TXT' || !key) throw Object.assign(new Error(`no ${rrtype} record for ${name}`), { code: 'ENOTFOUND' });
    return [[`v=DKIM1; k=rsa; p=${key.publicKey}`]];
  };

  /** A dispute notice in the platform's wording, signed by `signingDomain` (default the platform's own). */
  async disputeEmail(options: DisputeMailOptions, signingDomain = `${options.platform}.com`): Promise<string> {
    const unsigned = options.platform === 'venmo' ? venmoMail(options) : paypalMail(options);
    const key = this.#keys.get(signingDomain);
    if (!key) throw new Error(`the mailer has no key for ${signingDomain}`);
    const signer = { signingDomain, selector: SELECTOR, privateKey: key.privateKey };
    // mailauth signs what signatureData lists; its typings also ask for the fields at the top level.
    const { signatures, errors } = await dkimSign(unsigned, { ...signer, signatureData: [signer], canonicalization: 'relaxed/relaxed', signTime: options.date });
    if (errors.length) throw new Error(`signing failed: ${String(errors[0])}`);
    return signatures + unsigned;
  }
}

const crlf = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

function venmoMail(o: DisputeMailOptions): string {
  return crlf([
    'From: Venmo <venmo@venmo.com>',
    `To: ${o.to ?? 'maker@example.com'}`,
    'Subject: A payment you received is being disputed',
    `Date: ${o.date.toUTCString()}`,
    `Message-ID: <dispute-${o.disputeId}@venmo.com>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    'Hi,',
    '',
    'The sender of a payment you received has disputed it with their bank.',
    '',
    `Payment ID: ${o.paymentId}`,
    `Dispute ID: ${o.disputeId}`,
    '',
    'The Venmo team',
  ]);
}

function paypalMail(o: DisputeMailOptions): string {
  return crlf([
    'From: "service@paypal.com" <service@paypal.com>',
    `To: ${o.to ?? 'maker@example.com'}`,
    'Subject: We have received a dispute',
    `Date: ${o.date.toUTCString()}`,
    `Message-ID: <case-${o.disputeId}@paypal.com>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    'Hello,',
    '',
    'A buyer has opened a dispute for the transaction below.',
    '',
    `Transaction ID: ${o.paymentId}`,
    `Case ID: ${o.disputeId}`,
    '',
    'Sincerely, PayPal',
  ]);
}
