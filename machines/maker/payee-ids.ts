/**
 * How each payment platform names a payee, as a maker writes it and as the attestation
 * service reads it back from a payment. Each identifier has the spelling a maker may send
 * (`pattern`) and its normalised form (`normalise`): the payee id whose keccak256 a
 * deposit holds. A normalised id must be exactly what enclave/platforms/* make of the
 * same payee in a payment record (normalizeTag, normalizeEmail, normalizeZelleToken, the
 * Monzo digits, Venmo's and Wise's numeric ids), or a maker would register a payee no
 * payment to them could ever be proven against.
 *
 * Patterns are anchored, single regular expressions without look-arounds, so that the
 * OpenAPI document can carry them as they are and generators can produce from them.
 */

export interface PayeeIdentifier {
  /** What a maker may send, before normalising. */
  pattern: RegExp;
  /** What the pattern asks for, as a validation message ends ("must be …"). */
  rule: string;
  /** An accepted spelling, for the API description. */
  example: string;
  /** The normalised payee id of a value the pattern accepts. */
  normalise(raw: string): string;
}

const lowerWithout = (prefix: string) => (raw: string) => (raw.startsWith(prefix) ? raw.slice(prefix.length) : raw).toLowerCase();
const digitsOf = (raw: string) => raw.replace(/\D/g, '');

export const PAYEE_IDENTIFIERS = {
  /** Venmo payments name their receiver by user id (digits), not by @username. */
  venmoUserId: {
    pattern: /^[1-9][0-9]{0,18}$/,
    rule: 'a Venmo user id: 1 to 19 digits, not starting with 0',
    example: '3141592653',
    normalise: (raw) => raw,
  },
  cashtag: {
    pattern: /^\$?[A-Za-z0-9_]{1,20}$/,
    rule: 'a $Cashtag: 1 to 20 letters, digits or underscores, with or without the $',
    example: '$MakerMary',
    normalise: lowerWithout('$'),
  },
  chimeSign: {
    pattern: /^\$?[A-Za-z0-9][A-Za-z0-9-]{0,29}$/,
    rule: 'a $ChimeSign: 1 to 30 letters, digits or hyphens (not first), with or without the $',
    example: '$Maker-Mary',
    normalise: lowerWithout('$'),
  },
  /** Revolut writes the Revtag without its @; payments name it in any letter case. */
  revtag: {
    pattern: /^@?[A-Za-z0-9_]{3,32}$/,
    rule: 'a Revtag: 3 to 32 letters, digits or underscores, with or without the @',
    example: '@makerben',
    normalise: lowerWithout('@'),
  },
  /** Wise names the recipient of a Wisetag payment by their profile id, a JSON number. */
  wiseProfileId: {
    pattern: /^[1-9][0-9]{0,15}$/,
    rule: 'a Wise profile id: 1 to 16 digits, not starting with 0',
    example: '55501234',
    normalise: (raw) => raw,
  },
  sortCode: {
    pattern: /^[0-9]{2}-?[0-9]{2}-?[0-9]{2}$/,
    rule: 'a UK sort code: 6 digits, as 040004 or 04-00-04',
    example: '04-00-04',
    normalise: digitsOf,
  },
  ukAccountNumber: {
    pattern: /^[0-9]{8}$/,
    rule: 'a UK account number: 8 digits',
    example: '12345678',
    normalise: (raw) => raw,
  },
  /** A Monzo payee as one value: the sort code's 6 digits then the account number's 8. */
  monzoAccount: {
    pattern: /^[0-9]{2}-?[0-9]{2}-?[0-9]{2}-?[0-9]{8}$/,
    rule: 'a UK sort code and account number: 14 digits, as 04000412345678 or 04-00-04-12345678',
    example: '04000412345678',
    normalise: digitsOf,
  },
  email: {
    pattern: /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63}){1,8}$/,
    rule: 'an e-mail address such as maker@example.com',
    example: 'maker@example.com',
    normalise: (raw) => raw.toLowerCase(),
  },
  /** A Zelle phone token compares by its ten digits, the +1 dropped (normalizeZelleToken). */
  usPhone: {
    pattern: /^(\+?1[ .-]?)?\(?[2-9][0-9]{2}\)?[ .-]?[2-9][0-9]{2}[ .-]?[0-9]{4}$/,
    rule: 'a US phone number such as +1 415 555 0100 or 4155550100',
    example: '+1 (415) 555-0100',
    normalise: (raw) => digitsOf(raw).slice(-10),
  },
  alipayUserId: {
    pattern: /^2088[0-9]{12}$/,
    rule: 'an Alipay user id: 16 digits starting with 2088',
    example: '2088123412341234',
    normalise: (raw) => raw,
  },
} as const satisfies Record<string, PayeeIdentifier>;

export type PayeeIdentifierKind = keyof typeof PAYEE_IDENTIFIERS;

/** The normalised id of `raw` as a `kind`, or null when it is not one. */
export function payeeIdAs(kind: PayeeIdentifierKind, raw: string): string | null {
  const identifier: PayeeIdentifier = PAYEE_IDENTIFIERS[kind];
  return identifier.pattern.test(raw) ? identifier.normalise(raw) : null;
}
