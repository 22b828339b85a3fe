/**
 * The last delivery made for each (endpoint, subject): where the dispatcher finds the
 * delivery a new event of the same order must wait for. Only the dispatcher writes it,
 * one event at a time.
 */
import { DuplicateKeyError } from '../errors.js';
import type { Collection, Store, StoredDocument } from '../store/store.js';

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
    const _id = laneId(webhookId, subjectId);
    if (await this.lanes.updateOne({ _id }, { $set: { last: deliveryId } })) return;
    try {
      await this.lanes.insertOne({ _id, last: deliveryId });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      await this.lanes.updateOne({ _id }, { $set: { last: deliveryId } });
    }
  }
}

function laneId(webhookId: string, subjectId: string): string {
  return `${webhookId}:${subjectId}`;
}
