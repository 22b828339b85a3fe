/**
 * The payment-platform simulator's buyer API (enclave/simulator/buyer-api.ts), as a hosted
 * page calls it on a development node: signing in to a platform, as a customer would in the
 * app's own sign-in, and what the simulator answers or why it refused.
 */

/** A session in the simulator: the account signed in to, and the material the enclave replays. */
export interface SimulatorSession {
  account: { id: string; username: string; handle?: string };
  material: Record<string, unknown>;
}

/** `as`: the account to sign in to (a Venmo user id as `accountId`, a username elsewhere); a new one when left out. */
export function signInToSimulator(simulatorUrl: string, platform: string, as: { username?: string; accountId?: string } = {}): Promise<SimulatorSession> {
  return simulatorPost(`${simulatorUrl}/_buyer/sessions`, { platform, ...as });
}

export async function simulatorPost<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (!response.ok || !answer) throw new Error(answer?.error?.message ?? `the simulator answered ${response.status}`);
  return answer;
}
