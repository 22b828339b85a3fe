/**
 * Reading a test node's merchant events: the list through HTTP (validated against the
 * OpenAPI document like every answer), and waiting, in real time, for the recorder,
 * which takes events from the bus on its own schedule.
 */
import { answerOf } from './checkout.js';
import type { TestGateway } from './gateway.js';

export async function listEvents(gateway: TestGateway, key: string, query = ''): Promise<{ events: any[]; total: number; page: number; limit: number }> {
  return answerOf(await gateway.request('GET', `/api/v1/events${query ? `?${query}` : ''}`, { key }), 200, 'event list');
}

/** Polls the list until it holds `count` events (with `query`), or fails after `ms`. */
export async function untilListed(gateway: TestGateway, key: string, count: number, query = '', ms = 10_000): Promise<any[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const page = await listEvents(gateway, key, `limit=100${query ? `&${query}` : ''}`);
    if (page.total >= count) return page.events;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${count} events; listed ${page.total}: ${page.events.map((event) => event.type).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
