/**
 * What a referral code may be, and the key codes are compared by: letter case means
 * nothing in a code people read out and type, so `Alice` and `alice` are one code, held
 * by one maker, kept in the spelling its holder chose.
 */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{2,31}$/;
export const REFERRAL_CODE_RULE = '3 to 32 letters, digits, _ and -, starting with a letter or a digit';

/** The code's identity: its letters in lower case (also the id of the code's actor). */
export function referralCodeKey(code: string): string {
  return code.toLowerCase();
}
