/**
 * An open amount's save is conditional on the version the customer's page saw
 * (docs/resize.md, Amount conflicts). The order decides it in the turn that writes the
 * amount, so two saves made from one version cannot both win: the first moves the
 * version on and the second finds it moved. The gateway reads a view that may already
 * be old by the time its message arrives, so it never decides this itself.
 */
import type { OrderContext } from './order-types.js';

/** A save that names a version the amount has moved past. Without a version the save is unconditional. */
export function staleAmount(context: Pick<OrderContext, 'amountVersion'>, save: { amountVersion?: number | undefined }): boolean {
  return save.amountVersion !== undefined && save.amountVersion !== context.amountVersion;
}
