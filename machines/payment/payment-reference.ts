/**
 * The reference a payment carries in its memo when the seller's side resolves it. The
 * seller's session sees every payment the maker received, from anyone, so a payment is
 * tied to its intent by what its payer wrote: the checkout shows the customer this
 * reference as the memo to send (document 1's suggestedMemo), and the seller path
 * attests a payment only for the intent its memo names. 48 bits of the intent hash: no
 * one signals an intent whose reference matches another's by grinding.
 */
import type { Hex } from '../transaction/transaction-types.js';

export function paymentReference(intentHash: Hex): string {
  return `PEER-${intentHash.slice(2, 14).toUpperCase()}`;
}

/** Whether `memo` names the intent's reference, as a word of its own in any case. */
export function memoNamesIntent(memo: string | null | undefined, intentHash: Hex): boolean {
  if (!memo) return false;
  const reference = paymentReference(intentHash);
  return memo
    .toUpperCase()
    .split(/[^0-9A-Z-]+/)
    .includes(reference);
}
