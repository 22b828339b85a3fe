/**
 * Reserving the escrow's next deposit id for a request. The id is whatever the escrow will give
 * next, past every id already reserved by a request still pending, so that requests in flight at
 * once are built for consecutive ids instead of racing for one. It is a reservation, not a lock:
 * the batch's pre-assertion is what makes it safe, and a batch that finds its id taken reverts
 * whole and submits again under a new reservation.
 */
import type { ViewCollection } from '../runtime/view-collection.js';
import type { DepositChain } from '../adapters/chain/deposit-chain.js';

/** The deposit kind's views, as far as a reservation reads them. */
export type ReservationViews = ViewCollection<{ status: string; escrowAddress: string; depositId: string }>;

export async function reserveDepositId(chain: DepositChain, deposits: ReservationViews, excluding: string | null): Promise<bigint> {
  const [count, inFlight] = await Promise.all([
    chain.depositCount(),
    deposits.find({ 'view.status': 'pending', 'view.escrowAddress': chain.targets.escrow }, { projection: { view: 1 } }),
  ]);
  let highest = count;
  for (const doc of inFlight) {
    if (doc._id === excluding) continue;
    const reserved = BigInt(doc.view.depositId);
    if (reserved > highest) highest = reserved;
  }
  return highest + 1n;
}
