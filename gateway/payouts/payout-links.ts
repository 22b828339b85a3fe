/**
 * The customer's checkout link of a payout: `/cashout/{payoutId}?token=…`, the token the link
 * key's version and an HMAC of the payout id under it (kept-keys.ts: one key for every node).
 * Rotating the key makes every earlier link stop working (401 CASHOUT_TOKEN_INVALID); a
 * replayed create answers the link under the current key.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { KeptKeys } from '../cashout/kept-keys.js';

const PURPOSE = 'payout-link';

export class PayoutLinks {
  constructor(
    private readonly keys: KeptKeys,
    private readonly baseUrl: () => string,
  ) {}

  async token(payoutId: string): Promise<string> {
    const key = await this.keys.current(PURPOSE);
    return `${key.version}.${createHmac('sha256', key.secret).update(payoutId).digest('base64url')}`;
  }

  async checkoutUrl(payoutId: string): Promise<string> {
    return `${this.baseUrl()}/cashout/${encodeURIComponent(payoutId)}?token=${await this.token(payoutId)}`;
  }

  /** Whether `token` is the link of `payoutId` under the current key. */
  async verify(payoutId: string, token: string): Promise<boolean> {
    const expected = Buffer.from(await this.token(payoutId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** A new link key: every link made so far stops working. Answers the new key's version. */
  async rotate(): Promise<number> {
    return (await this.keys.rotate(PURPOSE)).version;
  }
}
