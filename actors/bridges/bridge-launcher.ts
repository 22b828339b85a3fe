/**
 * Starts the bridge of each settled payment of a bridged order (docs/bridges.md): a durable
 * consumer of PAYMENT_SETTLED, so a payment settled while the node was down is bridged when it
 * is back. The bridge's id is the payment's, and its create carries the event's id as message
 * id: a redelivered event, or a second node handling it, meets the bridge already made.
 *
 * What is bridged is the payment's net settled USDC, all of which the bridge wallet received;
 * the bridge runs on the payment's test clock, if any, as the payment's own timers do.
 */
import type { Logger } from 'pino';
import { BASE_CHAIN_ID, chainById, findToken } from '../../machines/catalog/index.js';
import { parseUsdc } from '../../machines/money.js';
import { CommandRejectedError } from '../errors.js';
import type { DomainEvent, EventBus, Subscription } from '../events/event-bus.js';
import { bridgeIdOf, bridgeKind } from '../kinds/bridge-kind.js';
import { merchantKind } from '../kinds/merchant-kind.js';
import { orderKind } from '../kinds/order-kind.js';
import type { ActorSystem } from '../runtime/actor-system.js';

export const BRIDGE_LAUNCHER_DURABLE = 'payment-bridges';

export interface BridgeLauncherOptions {
  system: ActorSystem;
  bus: EventBus;
  logger: Logger;
}

export class BridgeLauncher {
  #subscription: Subscription | null = null;

  constructor(private readonly options: BridgeLauncherOptions) {}

  async start(): Promise<void> {
    this.#subscription = await this.options.bus.consume({ durable: BRIDGE_LAUNCHER_DURABLE, kinds: ['payment'], types: ['PAYMENT_SETTLED'] }, (event) =>
      this.launch(event),
    );
  }

  async stop(): Promise<void> {
    await this.#subscription?.stop();
    this.#subscription = null;
  }

  async launch(event: DomainEvent): Promise<void> {
    const { system, logger } = this.options;
    const payment = event.data.payment as { id: string; netSettledUsdcAmount: string | null } | undefined;
    const orderId = event.data.orderId;
    if (!payment || typeof orderId !== 'string') return;
    const orderDoc = await system.views(orderKind).findOne({ _id: orderId }, { projection: { view: 1 } });
    if (!orderDoc) return;
    const { order, merchantId, environment } = orderDoc.view;
    const chain = chainById(order.destinationChainId);
    if (chain?.delivery !== 'BRIDGE') return;
    const token = findToken(chain, order.destinationToken);
    const base = chainById(BASE_CHAIN_ID)!;
    const merchant = await system.views(merchantKind).findOne({ _id: merchantId }, { projection: { view: 1 } });
    const refundAddress = merchant?.view.profile.evmWalletAddress ?? null;
    if (!token || !refundAddress || payment.netSettledUsdcAmount === null) {
      // The create rules refuse such an order (machines/order/destination.ts); one made before them is an operator's to settle.
      logger.error({ orderId, paymentId: payment.id }, 'a settled payment of a bridged order has no token, refund wallet or net amount; no bridge started');
      return;
    }
    try {
      await system.ask(
        bridgeKind,
        bridgeIdOf(payment.id),
        {
          type: 'CREATE',
          paymentId: payment.id,
          orderId,
          merchantId,
          environment,
          source: { chainId: base.id, token: base.tokens[0]!.address, decimals: base.tokens[0]!.decimals },
          destination: { chainId: chain.id, token: token.address, decimals: token.decimals, address: order.destinationAddress },
          amountUsdc: parseUsdc(payment.netSettledUsdcAmount),
          refundAddress,
          at: new Date(event.at).toISOString(),
          ...(event.clockId ? { clockId: event.clockId } : {}),
        },
        { messageId: `bridge-launch:${event.id}` },
      );
    } catch (error) {
      // Another delivery of the settlement (or another node) made it first: the one bridge stands.
      if (error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS') return;
      throw error;
    }
  }
}
