/**
 * The document's tags and the groups Redoc shows them in (`x-tagGroups`). Redoc hides
 * an operation whose tag is in no group, so every tag an operation names must be in
 * one here (test/gateway/openapi-reference.test.ts names any that is not). The
 * merchant's API comes first and apart, so a shop's developer reads only it.
 */
interface Tag {
  name: string;
  description: string;
}

interface TagGroup {
  name: string;
  tags: Tag[];
}

export const MERCHANT_GROUP = 'Merchant API';

const groups: TagGroup[] = [
  {
    name: MERCHANT_GROUP,
    tags: [
      { name: 'Orders', description: 'Checkout orders (document 1): create one with the API key, send the customer to its checkout link, read it back' },
      {
        name: 'Checkout',
        description:
          'The customer’s side of an order, with its order token: the hosted page, quotes, payments, the amount. The hosted page calls these; a custom checkout may too',
      },
      { name: 'Payments', description: 'Payment attempts of the merchant’s orders (document 1)' },
      {
        name: 'Remediation',
        description:
          'Rescuing a stuck attempt (document 1): recreate an ended one, extend one about to expire, settle one from the customer’s receipt id; each runs as an action you poll (docs/remediation.md)',
      },
      {
        name: 'Payouts',
        description: 'Paying your customers out in USDC on Base (document 2): create a payout, fund its one-off deposit address, follow it, cancel it unfunded',
      },
      {
        name: 'Refunds',
        description:
          'Refunding a fulfilled order, all or part, as a payout to its customer that you fund (docs/refunds.md); the order’s refund fields and REFUND_* webhooks follow it',
      },
      {
        name: 'Disputes',
        description:
          'Merchant-paid disputes (docs/disputes.md): opened over a settled payment with the attestation service’s dispute attestation, paid by you to the seller on Base before dueAt, else escalated; DISPUTE_* webhooks follow them',
      },
      { name: 'Webhooks', description: 'Where the merchant hears of changes, signed and retried (docs/webhooks.md)' },
      { name: 'Test clocks', description: 'Sandbox clocks that orders and payments run on, advanced at will (docs/test-clocks.md)' },
      { name: 'Merchants', description: 'The merchant’s own account' },
      {
        name: 'Dashboard',
        description:
          'The merchant dashboard’s session (docs/dashboard-auth.md): team members sign in with an e-mailed code; the team, the order read and cancel, and the audit log are for a session, not an API key',
      },
      { name: 'Integration', description: 'Getting ready to go live: a sandbox test order and what is left to do' },
    ],
  },
  {
    name: 'Payout customers',
    tags: [
      {
        name: 'Payout checkout',
        description:
          'The customer’s side of a payout (document 2), behind its checkoutUrl: sign in with an e-mailed code, choose how to be paid, be paid (docs/payout-checkout.md). The payout checkout page calls these; merchants do not',
      },
    ],
  },
  {
    name: 'Makers & market',
    tags: [
      {
        name: 'Market',
        description: 'Makers’ liquidity (document 3): the orderbook, the maker leaderboard, deposit bundles and the payment platforms’ provider templates',
      },
      { name: 'Deposits', description: 'Makers create and configure a deposit in one sponsored batch (document 3; docs/atomic-create.md)' },
      { name: 'Makers', description: 'Maker records (document 3): a maker’s payee on a payment platform, in the legacy (v1) and new (v2) formats' },
      { name: 'Maker sign-in', description: 'Makers sign in with an Ethereum wallet (EIP-4361) for a bearer token (docs/maker-auth.md)' },
      { name: 'Referrals', description: 'Makers’ referral codes (document 3; docs/maker-referrals.md)' },
      { name: 'Transaction history', description: 'A signed-in wallet’s USDC transfers (document 3; docs/transaction-history.md)' },
    ],
  },
  {
    name: 'Wallet provider',
    tags: [{ name: 'Wallet provider', description: 'Signed balance webhooks the wallet provider sends (document 3)' }],
  },
  {
    name: 'Admin & engineers',
    tags: [
      {
        name: 'Admin',
        description: 'Operators and engineers only, behind PEER_ADMIN_TOKEN: merchant accounts, the actor inspector, machine charts and dead letters',
      },
      { name: 'Metrics', description: 'The node’s Prometheus metrics, behind PEER_ADMIN_TOKEN' },
    ],
  },
  {
    name: 'Service',
    tags: [{ name: 'Service', description: 'Health and this description' }],
  },
];

const DEVELOPMENT_TAG: Tag = {
  name: 'Development',
  description: 'Served by a development node only (NODE_ENV=development); a production node answers 404 on these paths',
};

/** A development node's document has one group more: what only it serves. */
const groupsOf = (development: boolean): TagGroup[] => (development ? [...groups, { name: 'Development', tags: [DEVELOPMENT_TAG] }] : groups);

export const documentTags = (development: boolean): Tag[] => groupsOf(development).flatMap((group) => group.tags);

export const documentTagGroups = (development: boolean) =>
  groupsOf(development).map((group) => ({ name: group.name, tags: group.tags.map((tag) => tag.name) }));

/** The tags of the merchant's API: what a shop integrates with. */
export const merchantTags: ReadonlySet<string> = new Set(groups.find((group) => group.name === MERCHANT_GROUP)!.tags.map((tag) => tag.name));
