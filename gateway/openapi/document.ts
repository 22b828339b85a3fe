/**
 * The OpenAPI 3.1 document, generated from the zod schemas the routes validate their
 * input with and build their answers through, so it cannot drift from what the
 * gateway takes and sends. Each area's operations are in their own file; every
 * failure status lists its errorCode values (answers.ts).
 */
import { createDocument } from 'zod-openapi';
import { deadLetterOperations } from '../dead-letters/dead-letter-operations.js';
import { inspectorOperations } from '../inspector/inspector-operations.js';
import { machineOperations } from '../engineers/machine-operations.js';
import { engineersPagePaths } from '../engineers/engineers-page-paths.js';
import { merchantAdminOperations } from '../merchants/merchant-admin-operations.js';
import { merchantOperations } from '../merchants/merchant-operations.js';
import { dashboardAuthOperations } from '../dashboard/dashboard-auth-operations.js';
import { teamOperations } from '../dashboard/team-operations.js';
import { passkeyOperations } from '../dashboard/passkey-operations.js';
import { resizeOperations } from '../orders/resize-operations.js';
import { brandingOperations } from '../dashboard/branding-operations.js';
import { dashboardOrderOperations } from '../dashboard/dashboard-order-operations.js';
import { auditOperations } from '../dashboard/audit-operations.js';
import { apiKeyOperations } from '../dashboard/api-key-operations.js';
import { orderOperations } from '../orders/order-operations.js';
import { operationPaths } from '../operations/paths.js';
import { checkoutOperations } from '../checkout/checkout-operations.js';
import { checkoutPagePaths } from '../hosted-page/checkout-page-paths.js';
import { cashoutPagePaths } from '../hosted-page/cashout-page-paths.js';
import { dashboardPagePaths } from '../hosted-page/dashboard-page-paths.js';
import { paymentOperations } from '../payments/payment-operations.js';
import { actionOperations } from '../actions/action-operations.js';
import { actionAdminOperations } from '../actions/action-admin-operations.js';
import { chargebackAdminOperations } from '../chargebacks/chargeback-admin-operations.js';
import { payoutAdminOperations, payoutOperations } from '../payouts/payout-operations.js';
import { refundOperations } from '../refunds/refund-operations.js';
import { disputeOperations } from '../disputes/dispute-operations.js';
import { cashoutOperations } from '../cashout/cashout-operations.js';
import { cashoutActionOperations } from '../cashout/cashout-action-operations.js';
import { cashoutCryptoOperations } from '../cashout/cashout-crypto-operations.js';
import { cashoutConnectOperations } from '../cashout/cashout-connect-operation.js';
import { webhookOperations } from '../webhooks/webhook-operations.js';
import { eventOperations } from '../events/event-operations.js';
import { testClockOperations } from '../test-clocks/test-clock-operations.js';
import { integrationOperations } from '../integration/integration-operations.js';
import { walletProviderOperations, walletProviderSecuritySchemes } from '../wallet-provider/wallet-provider-operations.js';
import { marketOperations } from '../market/market-operations.js';
import { providerOperations } from '../providers/provider-operations.js';
import { makerRecordOperations } from '../makers/maker-record-operations.js';
import { securitySchemes } from './security.js';
import { makerOperations } from '../makers/maker-areas.js';
import { docsOperations } from '../service/docs-operations.js';
import { healthOperations } from '../service/health-operations.js';
import { probeOperations } from '../service/probe-operations.js';
import { metricsOperations } from '../service/metrics-operations.js';
import { unroutedTable } from './unrouted-answers.js';
import { devOperations } from '../dev/dev-operations.js';
import { landingPagePaths } from '../hosted-page/landing-page-paths.js';
import { QUICKSTART } from './quickstart.js';
import { documentTagGroups, documentTags } from './tags.js';
import { withCodeSamples } from './code-samples.js';

/** Answers no operation owns, because they come before (or instead of) routing. */
const ANY_PATH = `
Every response is the envelope \`{ success, message, responseObject, statusCode, errorCode? }\`, with \`statusCode\` equal to the HTTP status and \`success\` true exactly for a 2xx.
Branch on \`errorCode\`, never on \`message\`. A 400 without an errorCode is the validation shape (ValidationFailure).

Answers on any path, before an operation is chosen (each the envelope, \`responseObject\` null):

${unroutedTable()}
`.trim();

export function openApiDocument(
  version: string,
  options: { orderMaxUsdc: string; admin?: boolean; deadLetters?: boolean; metrics?: boolean; development?: boolean },
) {
  const development = Boolean(options.development);
  return withCodeSamples(
    createDocument({
      openapi: '3.1.0',
      info: {
        title: 'Peer platform API',
        version,
        summary: 'Collect USDC from customers paying in fiat over peer-to-peer apps',
        description: `${QUICKSTART}\n\n# Conventions\n\n${ANY_PATH}`,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Peer-Proprietary' },
      },
      servers: [{ url: '/', description: 'The node serving this document' }],
      tags: documentTags(development),
      'x-tagGroups': documentTagGroups(development),
      components: { securitySchemes: { ...securitySchemes(Boolean(options.admin)), ...walletProviderSecuritySchemes } },
      paths: {
        ...operationPaths(orderOperations(options)),
        ...operationPaths(paymentOperations()),
        ...operationPaths(actionOperations()),
        ...operationPaths(payoutOperations()),
        ...operationPaths(refundOperations()),
        ...operationPaths(resizeOperations()),
        ...operationPaths(disputeOperations()),
        ...operationPaths(webhookOperations()),
        ...operationPaths(eventOperations()),
        ...operationPaths(integrationOperations()),
        ...operationPaths(testClockOperations()),
        ...operationPaths(walletProviderOperations()),
        ...operationPaths(marketOperations()),
        ...operationPaths(providerOperations()),
        ...operationPaths(makerRecordOperations()),
        ...operationPaths(makerOperations()),
        ...operationPaths(checkoutOperations()),
        ...operationPaths(cashoutOperations()),
        ...operationPaths(cashoutActionOperations()),
        ...operationPaths(cashoutCryptoOperations()),
        ...operationPaths(cashoutConnectOperations()),
        ...checkoutPagePaths(development),
        ...cashoutPagePaths(),
        ...dashboardPagePaths(),
        ...(development ? { ...operationPaths(devOperations()), ...landingPagePaths() } : {}),
        ...operationPaths(merchantOperations()),
        ...operationPaths(dashboardAuthOperations()),
        ...operationPaths(teamOperations()),
        ...operationPaths(passkeyOperations()),
        ...operationPaths(dashboardOrderOperations()),
        ...operationPaths(brandingOperations()),
        ...operationPaths(auditOperations()),
        ...(options.admin ? operationPaths(merchantAdminOperations()) : {}),
        ...(options.admin ? operationPaths(payoutAdminOperations()) : {}),
        ...operationPaths(apiKeyOperations()),
        ...(options.admin ? operationPaths(actionAdminOperations()) : {}),
        ...(options.admin ? operationPaths(chargebackAdminOperations()) : {}),
        ...(options.admin ? operationPaths(inspectorOperations()) : {}),
        ...(options.admin ? { ...operationPaths(machineOperations()), ...engineersPagePaths() } : {}),
        ...(options.deadLetters ? operationPaths(deadLetterOperations()) : {}),
        ...(options.metrics ? operationPaths(metricsOperations()) : {}),
        ...operationPaths(healthOperations()),
        ...operationPaths(probeOperations()),
        ...operationPaths(docsOperations()),
      },
    }),
  );
}
