/** machines/cashout-login: a payout customer's one-time sign-in codes, as hashes, with their expiry, tries and ration. */
export {
  CODE_TTL_MS,
  CODE_WINDOW_MS,
  cashoutLoginMachine,
  issuedInWindow,
  MAX_CODES_PER_WINDOW,
  MAX_TRIES_PER_CODE,
  verificationOf,
} from './login-machine.js';
export type { CashoutLoginContext, CashoutLoginEvent, CashoutLoginInput, LoginCode, VerificationOutcome } from './login-machine.js';
export { loginCodeReply, rationWaitSeconds } from './code-answers.js';
export type { LoginCodeReply } from './code-answers.js';
