/**
 * What the payout checkout keeps across a reload of its tab: the login token its sign-in
 * answered and the code last sent, per payout, in sessionStorage (gone with the tab, never
 * shared with another). Each is dropped once its expiresAt has passed. A browser that keeps
 * no storage (some private modes) still works; a reload then asks to sign in again.
 */
export interface KeptUntil {
  value: string;
  expiresAt: string;
}

interface Kept {
  login?: KeptUntil;
  /** `value` is the masked address the code went to. */
  code?: KeptUntil;
}

export class CashoutSession {
  readonly #key: string;
  /** The page's own copy, so it works the same where storage is refused. */
  readonly #kept: Kept;

  constructor(
    payoutId: string,
    private readonly now: () => number = Date.now,
  ) {
    this.#key = `cashout:${payoutId}`;
    this.#kept = read(this.#key);
  }

  get login(): string | null {
    return this.#live('login')?.value ?? null;
  }

  get codeSent(): KeptUntil | null {
    return this.#live('code');
  }

  keep(what: keyof Kept, value: KeptUntil | null): void {
    if (value) this.#kept[what] = value;
    else delete this.#kept[what];
    try {
      sessionStorage.setItem(this.#key, JSON.stringify(this.#kept));
    } catch {
      // No storage: the page holds nothing across a reload.
    }
  }

  #live(what: keyof Kept): KeptUntil | null {
    const kept = this.#kept[what];
    return kept && Date.parse(kept.expiresAt) > this.now() ? kept : null;
  }
}

function read(key: string): Kept {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? '{}') as Kept;
  } catch {
    return {};
  }
}
