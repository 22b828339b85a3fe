/**
 * The platforms' dispute e-mails, for the embedded default and the tests: messages in
 * Venmo's and PayPal's wording, DKIM-signed by a key per domain made at start, and a
 * DNS resolver that publishes those keys, standing in for the platforms' TXT records.
 */
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { DNSResolver } from 'mailauth';

const SELECTOR = 'sim2026';
const generateRsaKeyPair = promisify(generateKeyPair);

export interface DisputeMailOptions {
  platform: 'venmo' | 'paypal';
  paymentId: string;
  disputeId: string;
  date: Date;
  to?: string;
}

interface DomainKey {
  privateKey: string;
  publicKey: string;
}

export class DisputeMailer {
  readonly #domains: Set<string>;
  /** Made on first use, off the event loop: a 2048-bit RSA key takes a few hundred milliseconds. */
  readonly #keys = new Map<string, Promise<DomainKey>>();

  constructor(domains: string[] = ['venmo.com', 'paypal.com']) {
    this.#domains = new Set(domains);
  }

  #key(domain: string): Promise<DomainKey> | undefined {
    if (!this.#domains.has(domain)) return undefined;
    let key = this.#keys.get(domain);
    if (!key) {
      key = generateRsaKeyPair('rsa', { modulusLength: 2048 }).then(({ privateKey, publicKey }) => ({
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      }));
      this.#keys.set(domain, key);
    }
    return key;
  }

  /** Answers TXT lookups of `<selector>._domainkey.<domain>` for the keys it signs with, and nothing else. */
  readonly resolver: DNSResolver = async (name, rrtype) => {
    const match = new RegExp(`^${SELECTOR}\\._domainkey\\.(.+)$`).exec(name.toLowerCase());
    const key = match && rrtype === 'TXT' ? this.#key(match[1]!) : undefined;
    if (!key) throw Object.assign(new Error(`no ${rrtype} record for ${name}`), { code: 'ENOTFOUND' });
    return [[`v=DKIM1; k=rsa; p=${(await key).publicKey}`]];
  };

  /** A dispute notice in the platform's wording, signed by `signingDomain` (default the platform's own). */
  async disputeEmail(options: DisputeMailOptions, signingDomain = `${options.platform}.com`): Promise<string> {
    const unsigned = options.platform === 'venmo' ? venmoMail(options) : paypalMail(options);
    const key = this.#key(signingDomain);
    if (!key) throw new Error(`the mailer has no key for ${signingDomain}`);
    const signer = { signingDomain, selector: SELECTOR, privateKey: (await key).privateKey };
    // mailauth signs what signatureData lists; its typings also ask for the fields at the top level.
    // Loaded on the first notice, as the verifier loads mailauth on the first dispute.
    const { dkimSign } = await import('mailauth/lib/dkim/sign.js');
    const { signatures, errors } = await dkimSign(unsigned, {
      ...signer,
      signatureData: [signer],
      canonicalization: 'relaxed/relaxed',
      signTime: options.date,
    });
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
