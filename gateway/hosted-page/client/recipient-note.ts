/**
 * document 1's `recipientRating` in a shopper's words. The rating counts how often payments
 * to a recipient ended settled (machines/market/recipient-rating.ts), and a recipient no one
 * has paid yet is rated 5.0, so "5.0 of 5" says nothing a shopper can use; how likely the
 * payment is to go through does.
 */
export function recipientNote(rating: number): string {
  if (rating >= 4.5) return 'Payments to this recipient go through reliably';
  if (rating >= 3.5) return 'Most payments to this recipient go through';
  return 'Some payments to this recipient did not go through';
}
