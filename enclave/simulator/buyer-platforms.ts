/**
 * What a buyer's account and payments look like on each platform the simulator serves
 * payments for, when a buyer makes them over HTTP rather than a test recording them. The
 * enclave reads them back through its own adapters, so ids, recipients and currencies
 * must be ones those adapters read, and a payment's proof params are exactly what the
 * platform's adapter asks for: a strict params schema refuses one more or one fewer.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { SimAccount } from './records.js';

export interface BuyerPlatform {
  /** A fresh payment id in the platform's own form; Wise's must survive being read as a JSON number. */
  paymentId(): string;
  /** The platform's public name for the account, where the simulator renders one: Cash App's cashtag, PayPal's e-mail, Wise's Wisetag. */
  handle?(username: string): string;
  /** The one currency the platform moves: its adapter reads every payment as that, whatever the payer meant. */
  currency?: string;
  /** Recipients the platform's page could not render readably: Wise writes the profile as a number, Monzo splits sort code from account. */
  payee?: RegExp;
  /** Params beyond PAYMENT_ID that the adapter needs to find the payment. */
  moreProofParams?(account: SimAccount): Record<string, string>;
}

/** Leading digit non-zero, so an id read as a number writes back the same. */
const digits = (count: number) => String(randomInt(1, 10)) + Array.from({ length: count - 1 }, () => randomInt(0, 10)).join('');
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

const BUYER_PLATFORMS: Record<string, BuyerPlatform> = {
  venmo: { paymentId: () => digits(19), currency: 'USD' },
  cashapp: { paymentId: () => `tok_${hex(12)}`, handle: (username) => `$${username}` },
  monzo: { paymentId: () => `tx_0000${hex(9)}`, payee: /^\d{2}-?\d{2}-?\d{2} \d{8}$/ },
  wise: {
    paymentId: () => digits(10),
    handle: (username) => `@${username}`,
    payee: /^[1-9]\d{0,14}$/,
    // Wise's transfer path names the sender's profile; the session reads no other.
    moreProofParams: (account) => ({ PROFILE_ID: account.id }),
  },
  revolut: { paymentId: () => randomUUID() },
  chime: { paymentId: () => `ch_${hex(10)}`, currency: 'USD' },
  'zelle-chase': { paymentId: () => digits(11), currency: 'USD' },
  'zelle-bofa': { paymentId: () => `BA${hex(5).toUpperCase()}`, currency: 'USD' },
  'zelle-citi': { paymentId: () => `CT${digits(10)}`, currency: 'USD' },
  paypal: { paymentId: () => hex(9).slice(0, 17).toUpperCase(), handle: (username) => `${username}@example.com` },
  'paypal-business': { paymentId: () => hex(9).slice(0, 17).toUpperCase() },
};

export function buyerPlatform(platform: string): BuyerPlatform | undefined {
  return Object.hasOwn(BUYER_PLATFORMS, platform) ? BUYER_PLATFORMS[platform] : undefined;
}

/** An account: a numeric id (new unless given), which every platform's pages carry and Wise's profile paths need. */
export function buyerAccount(platform: BuyerPlatform, username = `buyer${digits(6)}`, id = digits(10)): SimAccount {
  const handle = platform.handle?.(username);
  return { id, username, ...(handle ? { handle } : {}) };
}

/** What the enclave's buyer-proof verification needs, beside the session, to read this payment. */
export function proofParams(platform: BuyerPlatform, paymentId: string, account: SimAccount): Record<string, string> {
  return { PAYMENT_ID: paymentId, ...(platform.moreProofParams?.(account) ?? {}) };
}
