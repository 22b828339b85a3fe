/**
 * The remediation actions started from this page, followed until they end: each is polled
 * (GET …/actions/{actionId}) until SUCCEEDED, BLOCKED or FAILED, and whoever shows an attempt
 * hears of every change. Kept for the page's life, so an order read again still shows them.
 */
import { type ActionKind, type ActionStatus, type DashboardApi, DashboardError, type MerchantAction } from './dashboard-api.js';
import { FINAL_ACTION_STATUSES } from './dashboard-words.js';

/** Two seconds: a few actions polled at once stay well inside the 120 remediation reads a minute per merchant. */
const POLL_MS = 2_000;

export interface TrackedAction {
  kind: ActionKind;
  actionId: string;
  status: ActionStatus;
  /** The latest poll's answer; null until the first. */
  action: MerchantAction | null;
  /** A poll that failed, in the server's words: polling goes on. */
  pollError: string | null;
}

type Listener = (paymentId: string, final: boolean) => void;

export class ActionTracker {
  readonly #byPayment = new Map<string, TrackedAction[]>();
  readonly #listeners = new Set<Listener>();
  /** Moves on when the page forgets its actions: polls of an earlier one stop. */
  #generation = 0;

  constructor(private readonly api: DashboardApi) {}

  of(paymentId: string): TrackedAction[] {
    return this.#byPayment.get(paymentId) ?? [];
  }

  /** Stops following every action: the session moved to its other environment, or ended. */
  forget(): void {
    this.#generation++;
    this.#byPayment.clear();
  }

  /** Hears every change until `listener` answers false (its screen is gone). */
  listen(listener: (paymentId: string, final: boolean) => boolean): void {
    const wrapped: Listener = (paymentId, final) => {
      if (!listener(paymentId, final)) this.#listeners.delete(wrapped);
    };
    this.#listeners.add(wrapped);
  }

  /** Asks for the action; a refusal is thrown to the caller, an acceptance followed until final. */
  async start(orderId: string, paymentId: string, kind: ActionKind, txId?: string): Promise<void> {
    const accepted = await this.api.startAction(orderId, paymentId, kind, txId);
    const tracked: TrackedAction = { kind, actionId: accepted.actionId, status: accepted.status, action: null, pollError: null };
    this.#byPayment.set(paymentId, [tracked, ...this.of(paymentId).filter((other) => other.actionId !== tracked.actionId)]);
    this.#tell(paymentId, false);
    void this.#poll(orderId, paymentId, tracked, this.#generation);
  }

  async #poll(orderId: string, paymentId: string, tracked: TrackedAction, generation: number): Promise<void> {
    while (true) {
      // The acceptance said the status already; the action's read may lag its creation by a moment.
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (generation !== this.#generation) return;
      try {
        tracked.action = await this.api.action(orderId, tracked.actionId);
        tracked.status = tracked.action.status;
        tracked.pollError = null;
      } catch (error) {
        // A session that ended stops the poll; a passing refusal (the read limit) is shown and retried.
        if (error instanceof DashboardError && error.status === 401) return;
        tracked.pollError = error instanceof Error ? error.message : String(error);
      }
      const final = FINAL_ACTION_STATUSES.has(tracked.status);
      this.#tell(paymentId, final);
      if (final) return;
    }
  }

  #tell(paymentId: string, final: boolean): void {
    for (const listener of [...this.#listeners]) listener(paymentId, final);
  }
}
