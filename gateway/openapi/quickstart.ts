/**
 * The quickstart the reference page opens with (the document's `info.description`, in
 * Markdown): an order created with curl against the local node, its checkout link
 * opened and paid, its webhooks received, and the same order made with the Peer SDK.
 * test/docs/quickstart.test.ts runs every `curl` block and the SDK block as written,
 * against a node of its own, so a command here cannot go stale unnoticed.
 */

/** Where `npm start` serves, as the commands below name it. */
export const QUICKSTART_NODE_URL = 'http://127.0.0.1:3000';
/** The receiver the commands below register, on the reader's machine. */
export const QUICKSTART_RECEIVER_URL = 'http://127.0.0.1:4000/hooks';

const fence = '```';

export const QUICKSTART = `
# Quickstart

From a fresh clone to a paid order and its webhooks, on your machine. The merchant API is the first group of this page; the makers’, wallet provider’s and operators’ APIs follow it.

## 1. Start the node

${fence}sh
WEBHOOK_ALLOW_PRIVATE=true npm start
${fence}

It serves on ${QUICKSTART_NODE_URL}, with a local chain, makers’ liquidity on it and a local attestation service. \`WEBHOOK_ALLOW_PRIVATE=true\` lets a webhook endpoint live on your machine (refused in production). The first start prints the demo merchant’s API keys once: keep the live one.

${fence}sh
export PEER_API_KEY='<the live X-API-Key the first start printed>'
${fence}

## 2. Listen for webhooks

Register an endpoint of yours (any HTTP server on port 4000 that answers 2xx):

${fence}sh
curl -s ${QUICKSTART_NODE_URL}/api/v1/webhooks \\
  -H "x-api-key: $PEER_API_KEY" \\
  -H 'content-type: application/json' \\
  -d '{"url":"${QUICKSTART_RECEIVER_URL}"}'
${fence}

The answer holds the endpoint’s signing secret (\`responseObject.secret\`, \`whsec_…\`), shown this once: check every delivery’s signature with it (docs/webhook-signatures.md). Or register nothing and let \`npm run listen -- --forward http://localhost:4000/hooks\` stream the account’s events to that URL, signed as webhooks are.

## 3. Create an order

${fence}sh
curl -s ${QUICKSTART_NODE_URL}/api/v1/orders \\
  -H "x-api-key: $PEER_API_KEY" \\
  -H 'content-type: application/json' \\
  -d '{"requestedFiatAmount":"25.00","requestedFiatCurrency":"USD"}'
${fence}

201, with the order in \`responseObject.order\` (\`id\` \`ord_…\`, \`status\` CREATED) and \`responseObject.orderToken\`: the customer’s credential for this one order, shown this once. The USDC goes to the merchant’s wallet unless the body names a \`destinationAddress\`.

## 4. Open its checkout link

The checkout link is \`${QUICKSTART_NODE_URL}/?order=<order.id>&token=<orderToken>\`. With jq, one command creates an order and prints its link:

${fence}sh
curl -s ${QUICKSTART_NODE_URL}/api/v1/orders \\
  -H "x-api-key: $PEER_API_KEY" \\
  -H 'content-type: application/json' \\
  -d '{"requestedFiatAmount":"25.00","requestedFiatCurrency":"USD"}' \\
  | jq -r '.responseObject | "${QUICKSTART_NODE_URL}/?order=\\(.order.id)&token=\\(.orderToken)"'
${fence}

## 5. Pay it

On the page, pick Venmo and press Continue. The node pays through a local stand-in for the app: send the payment with the simulator’s button, then press “I’ve paid”. The attestation service verifies the payment, the maker’s USDC is released on the local chain and the page says Paid; the order is FULFILLED. (“Crypto on Arbitrum” pays from a local test wallet instead.)

## 6. Receive the webhooks

Your endpoint hears ORDER_CREATED at once, then PAYMENT_CREATED, PAYMENT_SETTLED and ORDER_FULFILLED as the customer pays, each signed (\`webhook-signature\`) and retried until it answers 2xx. The account’s orders and their state:

${fence}sh
curl -s ${QUICKSTART_NODE_URL}/api/v1/merchants/me/orders \\
  -H "x-api-key: $PEER_API_KEY"
${fence}

## The same with the Peer SDK

[\`@zkp2p/pay-sdk\`](https://www.npmjs.com/package/@zkp2p/pay-sdk) creates the order and builds its link; \`apiBaseUrl\` points it at this node. On your server, never in a browser (the API key stays secret):

${fence}js
import { createCheckout } from '@zkp2p/pay-sdk';

const checkout = await createCheckout(
  { requestedFiatAmount: '25.00', requestedFiatCurrency: 'USD' },
  {
    apiBaseUrl: '${QUICKSTART_NODE_URL}',
    apiKey: process.env.PEER_API_KEY,
  },
);
// ${QUICKSTART_NODE_URL}/?order=ord_…&token=…
console.log(checkout.checkoutUrl);
${fence}

Send the customer to \`checkout.checkoutUrl\` (in a browser, \`redirectToCheckout(order.id, orderToken, { apiBaseUrl })\` does it). Every merchant operation below has a curl and a JavaScript sample.
`.trim();
