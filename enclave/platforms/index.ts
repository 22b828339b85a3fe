/** The payment platforms the attestation service reads, by path segment, and the HTTP client that asks them. */
import { cashapp } from './cashapp.js';
import { chime } from './chime.js';
import { monzo } from './monzo.js';
import { paypalBusiness } from './paypal-business.js';
import { paypal } from './paypal.js';
import type { PaymentPlatform } from './platform.js';
import { revolut } from './revolut.js';
import { venmo } from './venmo.js';
import { wise } from './wise.js';
import { zelleBofa } from './zelle-bofa.js';
import { zelleChase } from './zelle-chase.js';
import { zelleCiti } from './zelle-citi.js';

export { parsePlatformResponse, PaymentNotFoundError, PlatformResponseError } from './platform.js';
export type { NormalizedPayment, PaymentDirection, PaymentPlatform, PlatformRequest } from './platform.js';
export { PLATFORM_HOSTS, platformClient } from './platform-client.js';
export type { PlatformClient, PlatformClientOptions } from './platform-client.js';

/** Every platform the buyer TEE path verifies payments on. */
// biome-ignore lint/suspicious/noExplicitAny: each platform has its own proof type; the list holds them all
export const PAYMENT_PLATFORMS: readonly PaymentPlatform<any>[] = [
  venmo,
  cashapp,
  monzo,
  wise,
  revolut,
  chime,
  zelleChase,
  zelleBofa,
  zelleCiti,
  paypal,
  paypalBusiness,
];

const byId = new Map(PAYMENT_PLATFORMS.map((platform) => [platform.id, platform]));

export function paymentPlatform(id: string): PaymentPlatform<unknown> | undefined {
  return byId.get(id);
}

/** The platforms the seller path serves: a receiver's session reads their payments with both parties and the memo. */
export const SELLER_PLATFORMS: readonly string[] = PAYMENT_PLATFORMS.filter((platform) => platform.sellerPath && platform.account).map(
  (platform) => platform.id,
);
