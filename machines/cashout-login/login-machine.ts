/**
 * A payout customer's sign-in codes (document 2: "the customer signs in with a one-time code
 * sent to the payout's e-mail"), one actor per payout. Pure: the gateway draws the code and
 * sends it; the machine keeps only its hash and decides. A code expires, is good for one
 * sign-in, and dies after a few wrong tries; a new code replaces the one before; and codes are
 * rationed per window, so neither the inbox nor the code space can be hammered through here.
 *
 * There is no timer: expiry and the window are read against the time each event carries.
 */
import { assign, setup } from 'xstate';

/** How long a code can be used. */
export const CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong tries a code takes before it dies: a six-digit code then falls to guessing once in 200,000 per code. */
export const MAX_TRIES_PER_CODE = 5;
/** Codes a payout may be sent per window. */
export const MAX_CODES_PER_WINDOW = 5;
export const CODE_WINDOW_MS = 15 * 60 * 1000;

export interface LoginCode {
  /** HMAC of the code under the node's sign-in key: the code itself is never stored. */
  hash: string;
  issuedAt: string;
  expiresAt: string;
  tries: number;
  usedAt: string | null;
}

/** The first code creates the actor (FIRST_CODE, whose input this is); later ones are ISSUE_CODE. */
export interface CashoutLoginInput {
  /** The payout's id. */
  id: string;
  hash: string;
  at: string;
}

export interface CashoutLoginContext {
  id: string;
  /** The latest code, the only one that signs in. */
  code: LoginCode | null;
  /** When each code of the current window was issued, oldest first. */
  issued: string[];
  signIns: number;
  /** The outcome of the latest VERIFY_CODE, for its reply. */
  lastVerification: { attemptId: string; outcome: VerificationOutcome } | null;
  createdAt: string;
  updatedAt: string;
}

export type VerificationOutcome = 'SIGNED_IN' | 'WRONG_CODE' | 'CODE_EXPIRED' | 'NO_CODE' | 'CODE_USED' | 'TOO_MANY_TRIES';

export type CashoutLoginEvent = { type: 'ISSUE_CODE'; hash: string; at: string } | { type: 'VERIFY_CODE'; attemptId: string; hash: string; at: string };

const ms = (iso: string) => Date.parse(iso);

const newCode = (hash: string, at: string): LoginCode => ({
  hash,
  issuedAt: at,
  expiresAt: new Date(ms(at) + CODE_TTL_MS).toISOString(),
  tries: 0,
  usedAt: null,
});

/** The codes issued in the window ending at `at`. */
export function issuedInWindow(context: Pick<CashoutLoginContext, 'issued'>, at: string): string[] {
  return context.issued.filter((issuedAt) => ms(at) - ms(issuedAt) < CODE_WINDOW_MS);
}

/** What a try with `hash` at `at` comes to, before it is recorded. */
export function verificationOf(code: LoginCode | null, hash: string, at: string): VerificationOutcome {
  if (!code) return 'NO_CODE';
  if (code.usedAt !== null) return 'CODE_USED';
  if (ms(at) >= ms(code.expiresAt)) return 'CODE_EXPIRED';
  if (code.tries >= MAX_TRIES_PER_CODE) return 'TOO_MANY_TRIES';
  return code.hash === hash ? 'SIGNED_IN' : 'WRONG_CODE';
}

export const cashoutLoginMachine = setup({
  types: { context: {} as CashoutLoginContext, events: {} as CashoutLoginEvent, input: {} as CashoutLoginInput },
  guards: {
    // The kind refuses an issue over the window's ration before the machine sees it; this keeps the machine honest on its own.
    withinRation: ({ context, event }) => event.type === 'ISSUE_CODE' && issuedInWindow(context, event.at).length < MAX_CODES_PER_WINDOW,
  },
  actions: {
    issue: assign(({ context, event }) => {
      if (event.type !== 'ISSUE_CODE') return {};
      return {
        code: newCode(event.hash, event.at),
        issued: [...issuedInWindow(context, event.at), event.at],
        updatedAt: event.at,
      };
    }),
    verify: assign(({ context, event }) => {
      if (event.type !== 'VERIFY_CODE' || !context.code) {
        return event.type === 'VERIFY_CODE' ? { lastVerification: { attemptId: event.attemptId, outcome: 'NO_CODE' as const }, updatedAt: event.at } : {};
      }
      const outcome = verificationOf(context.code, event.hash, event.at);
      const code =
        outcome === 'SIGNED_IN'
          ? { ...context.code, usedAt: event.at }
          : outcome === 'WRONG_CODE'
            ? { ...context.code, tries: context.code.tries + 1 }
            : context.code;
      return {
        code,
        signIns: context.signIns + (outcome === 'SIGNED_IN' ? 1 : 0),
        lastVerification: { attemptId: event.attemptId, outcome },
        updatedAt: event.at,
      };
    }),
  },
}).createMachine({
  id: 'cashout-login',
  context: ({ input }) => ({
    id: input.id,
    code: newCode(input.hash, input.at),
    issued: [input.at],
    signIns: 0,
    lastVerification: null,
    createdAt: input.at,
    updatedAt: input.at,
  }),
  initial: 'OPEN',
  states: {
    OPEN: {
      on: {
        ISSUE_CODE: { guard: 'withinRation', actions: 'issue' },
        VERIFY_CODE: { actions: 'verify' },
      },
    },
  },
});
