/** The wallet provider's inbound webhook of document 3 (docs/wallet-provider-webhook.md). */
import {
  walletProviderAccepted,
  walletProviderEventBody,
  walletProviderEventExample,
  walletProviderSignatureHeaders,
} from '../schemas/wallet-provider-schemas.js';
import { SIGNATURE_REFUSALS } from '../wallet-provider/signature.js';
import { failure, invalid, standardAnswers, success } from './answers.js';

/** The signature is the credential: declared as the header it travels in, with the scheme spelled out. */
export const walletProviderSecuritySchemes = {
  walletProviderSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'svix-signature',
    description:
      'Standard Webhooks signature (svix-id, svix-timestamp, svix-signature, or the webhook-* spelling) under WALLET_PROVIDER_WEBHOOK_SECRET: HMAC-SHA256 of "id.timestamp.body", base64, as v1,<signature>.',
  },
} as const;

export function walletProviderPaths() {
  return {
    '/v2/webhooks/walletprovider': {
      post: {
        operationId: 'receiveWalletProviderWebhook',
        tags: ['Wallet provider'],
        summary: 'Signed balance events from the wallet provider',
        description: [
          'The body is checked as every JSON body is, then the signature over it as received, then what it reports.',
          'A USDC transfer on a catalog chain is stored once, however many messages report it; any other object is acknowledged and ignored.',
          'A message id is claimed with its body: the same body again is answered 202 and stores nothing twice, another body under it is refused 409.',
        ].join(' '),
        security: [{ walletProviderSignature: [] }],
        requestParams: { header: walletProviderSignatureHeaders },
        // The example sits on the media type: the schema is any object, and an example there would read as its shape.
        requestBody: { required: true, content: { 'application/json': { schema: walletProviderEventBody, example: walletProviderEventExample } } },
        responses: standardAnswers(
          {
            '202': success(202, walletProviderAccepted, 'Accepted: stored, already stored, or ignored (the message says which)'),
            '400': invalid('the body is empty or not a JSON object, or a balance event on an eip155 chain has a malformed field'),
            '401': failure(
              401,
              Object.entries(SIGNATURE_REFUSALS).map(([code, when]) => ({ code: code as keyof typeof SIGNATURE_REFUSALS, when })),
            ),
            '409': failure(409, [{ code: 'MESSAGE_ID_REUSED', when: 'the message id was accepted before with another body; nothing was stored' }]),
          },
          { body: true, asksActors: true, unavailable: [{ code: 'WEBHOOK_NOT_CONFIGURED', when: 'WALLET_PROVIDER_WEBHOOK_SECRET is not set on this node' }] },
        ),
      },
    },
  };
}
