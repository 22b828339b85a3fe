/**
 * Notes that an account's API key is in use, for the integration status: at most once
 * an hour per account, as a message to the merchant's actor after the request is
 * answered, so no request waits for it and a busy integration costs one write an hour.
 */
import type { Logger } from 'pino';
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { MerchantAccount } from './merchant-accounts.js';

const HOUR_MS = 60 * 60 * 1000;

export class KeyUsage {
  /** Accounts with a note on its way, so a burst of requests sends one. */
  readonly #noting = new Set<string>();

  constructor(
    private readonly system: ActorSystem,
    private readonly now: () => string,
    private readonly logger: Logger,
  ) {}

  note(account: MerchantAccount): void {
    const now = this.now();
    const last = account.apiKeyLastUsedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(account.apiKeyLastUsedAt);
    if (Date.parse(now) - last < HOUR_MS || this.#noting.has(account.merchantId)) return;
    this.#noting.add(account.merchantId);
    this.system
      .ask(merchantKind, account.merchantId, { type: 'NOTE_KEY_USED', at: now })
      .catch((error: unknown) =>
        this.logger.warn({ err: error, merchantId: account.merchantId }, 'could not note the API key in use; the next request tries again'),
      )
      .finally(() => this.#noting.delete(account.merchantId));
  }
}
