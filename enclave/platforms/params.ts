/** The checks every platform's values share, from the rules machines/platforms publishes, and how payee ids are normalized. */
import { z } from 'zod';
import { PARAM_RULE, SESSION_FORMATS } from '../../machines/platforms/index.js';

/** A platform's payment or account id: what goes into a path, so nothing that could change the path. */
export const platformId = z.string().regex(new RegExp(PARAM_RULE.pattern), `must be ${PARAM_RULE.description}`);

const header = SESSION_FORMATS.header;

/** A header value a buyer captured: one line, so it cannot smuggle another header. */
export const headerValue = z.string().min(header.minLength!).max(header.maxLength!).regex(new RegExp(header.pattern!), 'must be one line');

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
