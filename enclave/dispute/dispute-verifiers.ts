/**
 * Dispute evidence: the platform's own e-mail about a dispute, whose DKIM signature
 * proves the platform sent it unaltered. The signature must pass for the platform's
 * domain, that domain must be the From domain, and it must cover the whole body (an
 * `l=` tag would let text be appended). Then the original payment id and the dispute
 * id are read from the text.
 */
import type { DNSResolver } from 'mailauth';
import PostalMime from 'postal-mime';
import { AttestationError } from '../errors.js';

export interface DisputeVerifierSpec {
  platform: 'venmo' | 'paypal';
  actionType: string;
  signingDomain: string;
  paymentIdPattern: RegExp;
  disputeIdPattern: RegExp;
}

export const DISPUTE_VERIFIERS: readonly DisputeVerifierSpec[] = [
  {
    platform: 'venmo',
    actionType: 'dispute_venmo',
    signingDomain: 'venmo.com',
    paymentIdPattern: /Payment ID:\s*(\d{6,32})/,
    disputeIdPattern: /Dispute ID:\s*([A-Z0-9-]{4,64})/,
  },
  {
    platform: 'paypal',
    actionType: 'dispute_paypal',
    signingDomain: 'paypal.com',
    paymentIdPattern: /Transaction ID:\s*([A-Z0-9]{12,32})/,
    disputeIdPattern: /Case ID:\s*(PP-[A-Z0-9-]{4,64})/,
  },
];

export interface VerifiedDispute {
  platform: string;
  paymentId: string;
  disputeId: string;
  signingDomain: string;
  /** The e-mail's Date header, Unix seconds. */
  emailDate: bigint;
}

/**
 * Headers that decide what the e-mail says. DKIM covers only the last instance of a
 * signed header, while a parser may read the first: a second copy, added in transit,
 * would be read unsigned. An e-mail with more than one of any is refused.
 */
const SINGLE_HEADERS = ['from', 'date', 'subject', 'to', 'message-id', 'content-type', 'content-transfer-encoding', 'mime-version'];

function repeatedHeader(rawEmail: string): string | undefined {
  const end = rawEmail.search(/\r?\n\r?\n/);
  const counts = new Map<string, number>();
  for (const line of (end === -1 ? rawEmail : rawEmail.slice(0, end)).split(/\r?\n/)) {
    const name = /^([^\s:]+):/.exec(line)?.[1]?.toLowerCase();
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return SINGLE_HEADERS.find((name) => (counts.get(name) ?? 0) > 1);
}

const underDomain = (domain: string, expected: string) => domain.toLowerCase() === expected || domain.toLowerCase().endsWith(`.${expected}`);

export async function verifyDisputeEmail(spec: DisputeVerifierSpec, rawEmail: string, resolver: DNSResolver | undefined, now: Date): Promise<VerifiedDispute> {
  const repeated = repeatedHeader(rawEmail);
  if (repeated)
    throw new AttestationError('DKIM_VERIFICATION_FAILED', 422, `the e-mail carries more than one ${repeated} header; only one can be the signed one`);
  // mailauth loads on the first dispute: it is a sixth of a node's start, and most nodes never verify one.
  const { dkimVerify } = await import('mailauth/lib/dkim/verify.js');
  const dkim = await dkimVerify(rawEmail, { ...(resolver ? { resolver } : {}), curTime: now });
  const passing = dkim.results.find(
    (result) => result.status.result === 'pass' && !result.status.underSized && underDomain(result.signingDomain, spec.signingDomain),
  );
  if (!passing) {
    throw new AttestationError('DKIM_VERIFICATION_FAILED', 422, `the e-mail carries no passing DKIM signature of ${spec.signingDomain} over its whole body`);
  }
  if (!dkim.headerFrom.length || !dkim.headerFrom.every((from) => underDomain(from.split('@').pop() ?? '', spec.signingDomain))) {
    throw new AttestationError('DKIM_VERIFICATION_FAILED', 422, `the e-mail is not from ${spec.signingDomain}`);
  }
  const parsed = await PostalMime.parse(rawEmail);
  const text = parsed.text ?? '';
  const paymentId = spec.paymentIdPattern.exec(text)?.[1];
  const disputeId = spec.disputeIdPattern.exec(text)?.[1];
  if (!paymentId || !disputeId) {
    throw new AttestationError('DISPUTE_DETAILS_NOT_FOUND', 422, `the ${spec.platform} e-mail names no original payment id and dispute id`);
  }
  const date = parsed.date ? Date.parse(parsed.date) : Number.NaN;
  if (Number.isNaN(date)) throw new AttestationError('DISPUTE_DETAILS_NOT_FOUND', 422, 'the e-mail has no readable Date header');
  return { platform: spec.platform, paymentId, disputeId, signingDomain: passing.signingDomain.toLowerCase(), emailDate: BigInt(Math.floor(date / 1000)) };
}
