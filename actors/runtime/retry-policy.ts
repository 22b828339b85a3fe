/**
 * How long work that keeps failing is retried before it becomes a dead letter:
 * exponential backoff with jitter, bounded by a number of attempts and an age.
 * Effects, timers and bus deliveries all follow it, so nothing that always fails
 * blocks what queues behind it for longer than the policy allows.
 */
export interface RetryPolicy {
  /** Delay before the second attempt; each later delay doubles, up to `maxBackoffMs`. */
  baseMs: number;
  maxBackoffMs: number;
  /** Attempts in all, the first included; the next failure after these is a dead letter. */
  maxAttempts: number;
  /** Work first tried longer ago than this is a dead letter at its next failure, whatever its count. */
  maxAgeMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseMs: 100,
  maxBackoffMs: 60_000,
  maxAttempts: 10,
  maxAgeMs: 24 * 60 * 60 * 1000,
};

export type RetryDecision = { retry: true; at: number } | { retry: false };

/**
 * What to do after the `attempts`-th failure of work first tried at `firstAttemptAt`.
 * The delay is "equal jitter": half the exponential step plus a random share of the
 * other half, so retries of many failures spread out without ever retrying at once.
 */
export function afterFailure(policy: RetryPolicy, attempts: number, firstAttemptAt: number, now: number, random: () => number = Math.random): RetryDecision {
  if (attempts >= policy.maxAttempts || now - firstAttemptAt >= policy.maxAgeMs) return { retry: false };
  const step = Math.min(policy.maxBackoffMs, policy.baseMs * 2 ** Math.min(attempts - 1, 30));
  return { retry: true, at: now + Math.ceil(step / 2 + random() * (step / 2)) };
}
