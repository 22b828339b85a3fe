/**
 * Whether this node can complete a live payment now. A payment signals an intent through
 * the relayer, waits for the indexer's facts and (on a fiat rail) for the attestation
 * service's verdict: a customer who starts one while any of them cannot answer would wait
 * on a spinner for nothing. So the sides are asked in the background, each within a short
 * deadline, and a payment is refused at once, with a clear error, while one of them is
 * silent. A node whose data belongs to another chain is never ready (chain-identity.ts).
 */
import type { Logger } from 'pino';
import { withTimeLimit } from '../actors/time-limit.js';

/** What live payments on a rail lean on: every rail on the chain, fiat rails on the attestation service too. */
export type LiveRail = 'fiat' | 'crypto';

export interface ReadinessProbe {
  /** What the probe asks, for the operator's log: "the chain", "the attestation service". */
  name: string;
  rails: readonly LiveRail[];
  /** Resolves when the side answers; rejects, or outlasts the deadline, when it does not. */
  ask(): Promise<void>;
}

export interface LiveReadinessOptions {
  probes: readonly ReadinessProbe[];
  /** A reason that holds for the node's whole run (its data was written against another chain). */
  standing?: string | null;
  deadlineMs: number;
  everyMs: number;
  /** Rounds in a row a side must miss before it counts as silent: one slow answer on a busy machine refuses no payment. */
  silentAfter: number;
  logger: Logger;
}

export class LiveReadiness {
  readonly #options: LiveReadinessOptions;
  /** Why each silent side is silent, by probe name. */
  readonly #silent = new Map<string, { rails: readonly LiveRail[]; reason: string }>();
  /** Rounds each side has missed in a row. */
  readonly #missed = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  #round: Promise<void> | null = null;

  constructor(options: LiveReadinessOptions) {
    this.#options = options;
  }

  /** Asks every side once now, then every `everyMs` until stopped. */
  async start(): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => void this.refresh(), this.#options.everyMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Why a live payment on `rail` cannot be completed now; null when it can. */
  unavailable(rail: LiveRail): string | null {
    if (this.#options.standing) return this.#options.standing;
    return this.#reasons((silent) => silent.rails.includes(rail));
  }

  /** Why any live payment cannot be completed now, for the health check; null when all can. */
  reason(): string | null {
    if (this.#options.standing) return this.#options.standing;
    return this.#reasons(() => true);
  }

  /** The silent sides' reasons, in the probes' order. */
  #reasons(include: (silent: { rails: readonly LiveRail[] }) => boolean): string | null {
    const reasons = this.#options.probes.flatMap((probe) => {
      const silent = this.#silent.get(probe.name);
      return silent && include(silent) ? [silent.reason] : [];
    });
    return reasons.length === 0 ? null : reasons.join('; ');
  }

  /** Asks every side once; a round already under way is shared rather than doubled. */
  refresh(): Promise<void> {
    this.#round ??= this.#ask().finally(() => (this.#round = null));
    return this.#round;
  }

  async #ask(): Promise<void> {
    const { probes, deadlineMs, silentAfter, logger } = this.#options;
    await Promise.all(
      probes.map(async (probe) => {
        const failure = await withinDeadline(probe.ask(), deadlineMs).then(
          () => null,
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
        const was = this.#silent.get(probe.name);
        if (failure === null) {
          if (was) logger.info({ side: probe.name }, `${probe.name} answers again: live payments resume`);
          this.#silent.delete(probe.name);
          this.#missed.delete(probe.name);
          return;
        }
        const missed = (this.#missed.get(probe.name) ?? 0) + 1;
        this.#missed.set(probe.name, missed);
        if (missed < silentAfter) return;
        if (!was) logger.warn({ side: probe.name, reason: failure }, `${probe.name} does not answer: live payments are refused until it does`);
        this.#silent.set(probe.name, { rails: probe.rails, reason: `${probe.name} does not answer (${failure})` });
      }),
    );
  }
}

function withinDeadline(answer: Promise<void>, deadlineMs: number): Promise<void> {
  return withTimeLimit(answer, deadlineMs, () => new Error(`no answer within ${deadlineMs} ms`));
}
