/**
 * When a failed webhook delivery is tried again. Twelve attempts over about three
 * days, each wait stretched by up to a tenth so that deliveries that failed together
 * (a receiver's outage) do not all come back in the same second. Stretched, never
 * shrunk: shrinking could bring a delivery's last attempt inside three days. The
 * jitter is derived from the delivery id, because machines take no randomness but
 * their inputs: the same delivery always waits the same.
 *
 * | after attempt | 1  | 2  | 3   | 4  | 5  | 6   | 7   | 8   | 9   | 10  | 11  |
 * |---------------|----|----|-----|----|----|-----|-----|-----|-----|-----|-----|
 * | wait (+0–10%) | 1m | 5m | 30m | 2h | 5h | 10h | 12h | 12h | 12h | 12h | 10h |
 *
 * The waits add up to 75 h 36 min at least: a receiver down for three days still gets every event.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const RETRY_WAITS_MS: readonly number[] = [
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  12 * HOUR,
  12 * HOUR,
  12 * HOUR,
  12 * HOUR,
  10 * HOUR,
];

/** Attempts a delivery gets on its schedule, the first included. */
export const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;

/** The share of a wait the jitter may add. */
export const JITTER = 0.1;

/** How long to wait after the `attempt`-th failed attempt (1-based); undefined once the schedule is spent. */
export function retryWaitMs(deliveryId: string, attempt: number): number | undefined {
  const base = RETRY_WAITS_MS[attempt - 1];
  if (base === undefined) return undefined;
  // A number in [0, 1) from the id and the attempt, so each retry of one delivery moves differently.
  const unit = fnv1a(`${deliveryId}:${attempt}`) / 0x1_0000_0000;
  return Math.round(base * (1 + JITTER * unit));
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
