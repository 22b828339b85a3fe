/**
 * document 1's `recipientRating` (1.0 to 5.0, one decimal): how reliably payments to a
 * recipient ended settled, from the attempts this node has seen end. An attempt that
 * settled counts for the recipient; one that expired or failed counts against (the
 * customer may have paid and seen nothing released); one the customer cancelled counts
 * neither way. A recipient nobody has paid yet is rated 5.0, as marketplaces show a new
 * seller, so that new makers are quoted at all. The counts are read in actors/market/recipient-rating.ts.
 */
export const NEW_RECIPIENT_RATING = 5;

export function ratingOf(settled: number, unsettled: number): number {
  const ended = settled + unsettled;
  if (ended === 0) return NEW_RECIPIENT_RATING;
  // Tenths, rounded half up, in integers: 1.0 with no success at all, 5.0 with no failure.
  return (10 + Math.floor((40 * settled * 2 + ended) / (2 * ended))) / 10;
}
