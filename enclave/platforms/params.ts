/** Public params and session fields every platform shares. */
import { z } from 'zod';

/** A platform's payment or account id: what goes into a path, so nothing that could change the path. */
export const platformId = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1 to 128 letters, digits, dots, underscores, colons or hyphens');

export const paymentIdParams = z.object({ PAYMENT_ID: platformId }).strict();

/** A header value a buyer captured: one line, so it cannot smuggle another header. */
export const headerValue = z.string().min(1).max(8192).regex(/^[^\r\n]*$/, 'must be one line');

export const cookieSession = z.object({ Cookie: headerValue }).strict();

export const bearerSession = z.object({ Authorization: headerValue.regex(/^Bearer \S+$/, 'must be "Bearer <token>"') }).strict();

/** Lower case and trimmed: how e-mail payees are registered and compared. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** `$Alice` and `alice` name one cashtag or $ChimeSign. */
export function normalizeTag(tag: string): string {
  return tag.trim().replace(/^\$/, '').toLowerCase();
}

/** Zelle tokens are an e-mail or a US phone number; a phone compares by its ten digits. */
export function normalizeZelleToken(token: string): string {
  if (token.includes('@')) return normalizeEmail(token);
  const digits = token.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}
