/** What the rest of the node calls to send a transaction and to follow it, outside any machine. */
import type { TransactionRequest } from '../../machines/transaction/index.js';
import { transactionKind, type TransactionView } from '../kinds/transaction-kind.js';
import type { ActorSystem } from '../runtime/actor-system.js';

export class Relayer {
  constructor(private readonly system: ActorSystem) {}

  /**
   * Prepares transaction `id` for sending. The id is the idempotency key: asking again
   * with the same id answers the transaction already prepared and sends nothing more.
   */
  async send(id: string, request: TransactionRequest & { from?: string }): Promise<TransactionView> {
    return this.system.ask(transactionKind, id, { type: 'PREPARE', ...request, at: this.system.clock.now() }, { messageId: `prepare:${id}` });
  }

  /** Asks for the transaction not to happen: its nonce is spent on a transfer of nothing to the sender. */
  async cancel(id: string): Promise<TransactionView> {
    return this.system.ask(transactionKind, id, { type: 'CANCEL', at: this.system.clock.now() });
  }

  async read(id: string): Promise<TransactionView | null> {
    const doc = await this.system.views(transactionKind).findOne({ _id: id });
    return doc?.view ?? null;
  }
}
