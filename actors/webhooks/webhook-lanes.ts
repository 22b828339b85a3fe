/**
 * The last delivery made for each (endpoint, subject): where the dispatcher finds the
 * delivery a new event of the same order must wait for. Only the dispatcher writes it,
 * one event at a time.
 */
import type { Collection, Store, StoredDocument } from '../store/store.js';
import { setOrInsert } from '../store/set-or-insert.js';

interface LaneRow extends StoredDocument {
  last: string;
}

export class WebhookLanes {
  private constructor(private readonly lanes: Collection<LaneRow>) {}

  static async open(store: Store): Promise<WebhookLanes> {
    return new WebhookLanes(await store.collection<LaneRow>({ name: 'webhook_lanes', indexes: [] }));
  }

  async last(webhookId: string, subjectId: string): Promise<string | null> {
    return (await this.lanes.findOne({ _id: laneId(webhookId, subjectId) }))?.last ?? null;
  }

  async advance(webhookId: string, subjectId: string, deliveryId: string): Promise<void> {
    await setOrInsert(this.lanes, laneId(webhookId, subjectId), { last: deliveryId });
  }
}

function laneId(webhookId: string, subjectId: string): string {
  return `${webhookId}:${subjectId}`;
}
