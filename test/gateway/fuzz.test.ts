import test from 'ava';
import { startTestGateway } from '../support/gateway.js';
import { FUZZ_NODE_CONFIG, formatFuzzReport, fuzzGateway, prepareFuzzTarget, problemsAfterFuzz } from '../support/gateway-fuzz.js';

const REQUESTS = 3_000;

test(`${REQUESTS} fuzzed requests over every documented operation: no 5xx, every answer in the envelope, the node healthy after`, async (t) => {
  t.timeout(180_000);
  const gateway = await startTestGateway(FUZZ_NODE_CONFIG);
  try {
    const target = await prepareFuzzTarget(gateway);
    const report = await fuzzGateway(target, { requests: REQUESTS, concurrency: 8 });
    t.log(`\n${formatFuzzReport(report)}`);
    t.deepEqual(await problemsAfterFuzz(gateway, target), []);

    // The fuzzer must reach every operation and the branches behind validation, or its silence proves nothing.
    t.deepEqual(
      [...report.byOperation.keys()].sort(),
      Object.entries(target.document.paths)
        .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
        .sort(),
    );
    for (const status of [200, 201, 400, 401, 404, 405, 413, 415, 501]) t.true(report.byStatus.has(status), `no request was answered ${status}`);
    for (const [operation, byStatus] of report.byOperation) {
      // A customer's step succeeds only with its order's token, in sequence (an attempt to act on, a live chain to
      // prove on): test/gateway/checkout-*.test.ts and test/deploy/payment-http.test.ts walk those; here they must fail cleanly.
      if (operation.includes('/api/v1/checkout/')) continue;
      // Likewise a payout customer's, with the payout's link token and a mailed code: test/gateway/cashout/*.test.ts.
      if (operation.includes('/api/v1/cashout-checkout/')) continue;
      // A send needs a deposit address the local provider knows: test/gateway/dev/local-wallet.test.ts.
      if (operation === 'POST /dev/local-wallet/transfers') continue;
      // A sign-in needs a message a wallet signed over a fresh nonce: test/gateway/wallet-auth.test.ts signs them.
      if (operation === 'POST /v2/auth/verify') continue;
      // Likewise a dashboard sign-in, with a mailed code: test/gateway/dashboard/dashboard-sign-in.test.ts.
      if (operation === 'POST /api/v1/dashboard/sign-in') continue;
      // A passkey registers and signs in only with an authenticator's signed answer over a fresh challenge, and is removed
      // only by the id of one registered: test/gateway/dashboard/dashboard-passkeys.test.ts makes and signs them.
      if (['POST /api/v1/dashboard/passkeys', 'POST /api/v1/dashboard/sign-in/passkey', 'DELETE /api/v1/dashboard/passkeys/{passkeyId}'].includes(operation))
        continue;
      // A dispute opens only with an attestation the node's attestation service signed over a DKIM-signed e-mail: test/gateway/disputes/live-disputes.test.ts.
      if (operation === 'POST /api/v1/disputes') continue;
      // A chargeback is recorded on a chain, against a payment settled there; the fuzzed node has none: test/gateway/chargebacks.test.ts.
      if (operation === 'POST /internal/v1/payments/{paymentId}/chargebacks') continue;
      t.true(
        [...byStatus.keys()].some((status) => status < 300),
        `${operation} never succeeded`,
      );
    }
  } finally {
    await gateway.stop();
  }
});
