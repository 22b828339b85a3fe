/**
 * The support side of a node that has no outside one: approval requests are kept in the node's
 * store (once per action) and announced in the log with the command that decides them. Staff
 * decide through the admin API or CLI (`npm run admin -- approve|reject|cancel ACTION_ID --by NAME`),
 * which reads the waiting actions themselves; this desk is the record that each was put before them.
 */
import type { Logger } from 'pino';
import { DuplicateKeyError } from '../../errors.js';
import type { Collection, Store } from '../../store/store.js';

export type ApprovalRequestRecord = {
  _id: string;
  actionName: string;
  merchantId: string;
  orderId: string;
  paymentId: string;
  expiresAt: string;
  requestedAt: string;
};

export class LocalSupportDesk {
  private constructor(
    private readonly requests: Collection<ApprovalRequestRecord>,
    private readonly now: () => string,
    private readonly logger: Logger,
  ) {}

  static async open(store: Store, now: () => string, logger: Logger): Promise<LocalSupportDesk> {
    return new LocalSupportDesk(await store.collection<ApprovalRequestRecord>({ name: 'support_approval_requests', indexes: [] }), now, logger);
  }

  async requestApproval(request: { actionId: string; actionName: string; merchantId: string; orderId: string; paymentId: string; expiresAt: string }) {
    const { actionId, ...rest } = request;
    try {
      await this.requests.insertOne({ _id: actionId, ...rest, requestedAt: this.now() });
    } catch (error) {
      // Asked again for the same action (the merchant's retry): the request stands as first made.
      if (error instanceof DuplicateKeyError) return;
      throw error;
    }
    this.logger.info(
      { actionId, actionName: request.actionName, merchantId: request.merchantId, expiresAt: request.expiresAt },
      `an action waits for approval: npm run admin -- approve ${actionId} --by NAME (or reject, cancel)`,
    );
  }

  /** The request kept for an action; null when none was made. */
  async request(actionId: string): Promise<ApprovalRequestRecord | null> {
    return this.requests.findOne({ _id: actionId });
  }
}
