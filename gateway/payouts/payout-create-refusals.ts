/** The refusals every route that creates a payout answers alike (a payout, an order's refund): its rails, its funding route, its preparation. */
export const PAYOUT_RAIL_AND_ROUTE_REFUSALS = [
  { code: 'PAYOUT_REQUESTED_RAILS_UNAVAILABLE' as const, when: 'none of the requested rails is effective on the account' },
  { code: 'PAYOUT_NO_RAILS_AVAILABLE' as const, when: 'every payout method turned on is switched off, crypto included' },
  { code: 'PAYOUT_ROUTE_UNQUOTABLE' as const, when: 'the funding route cannot be priced' },
  { code: 'PAYOUT_FUNDING_AMOUNT_TOO_LOW' as const, when: 'the provider refused the route as too small; choose a larger amount or another funding token' },
];

export const PAYOUT_PREPARATION_FAILURES = [
  { code: 'PAYOUT_EMBEDDED_WALLET_FAILED' as const, when: 'the customer’s wallet could not be prepared; retry with the same key' },
  { code: 'PAYOUT_BRIDGE_QUOTE_FAILED' as const, when: 'any other conversion quote failure; retry with the same key, or use another funding token' },
];
