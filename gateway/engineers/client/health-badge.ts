/**
 * The node's health in the page's bar (GET /v1/health-check, public): healthy,
 * degraded or unhealthy, with its environment and version, and its message as the
 * tooltip (a degraded node says why). Read when the page starts and with every refresh
 * of the watchlist.
 */
interface HealthReport {
  status: 'healthy' | 'degraded' | 'unhealthy';
  environment: string;
  version: string;
}

export async function showHealth(badge: HTMLElement): Promise<void> {
  try {
    const response = await fetch('/v1/health-check', { cache: 'no-store' });
    const body = (await response.json()) as { message: string; responseObject: HealthReport };
    const { status, environment, version } = body.responseObject;
    badge.textContent = `node ${status} · ${environment} · v${version}`;
    badge.dataset.status = status;
    badge.title = body.message;
  } catch (error) {
    badge.textContent = 'node not answering';
    badge.dataset.status = 'unhealthy';
    badge.title = error instanceof Error ? error.message : String(error);
  }
}
