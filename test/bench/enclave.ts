/**
 * The attestation service's throughput: full buyer-TEE verifications over HTTP (open the
 * sealed session, read the platform, verify, claim the payment id, sign) against the
 * bare platform read the enclave cannot avoid, the same request straight to the
 * simulator, in the same run.
 */
import { closedLoop, type Comparison } from './harness.js';
import { paymentPlatform } from '../../enclave/platforms/index.js';
import { PLATFORM_FIXTURES, TEST_CHAIN_ID, intentFor, preparePayment, startTestEnclave, paymentUse } from '../support/enclave.js';

export async function enclaveBenchmark(total: number): Promise<Comparison> {
  const enclave = await startTestEnclave();
  const fixture = PLATFORM_FIXTURES.find((candidate) => candidate.platform === 'venmo')!;
  const platform = paymentPlatform('venmo')!;
  const rows: Comparison['rows'] = [];
  try {
    for (const inFlight of [1, 16]) {
      const prepared = Array.from({ length: total }, () => preparePayment(enclave, fixture));
      const bodies = await Promise.all(
        prepared.map(async (p) => {
          const intent = intentFor(fixture);
          return JSON.stringify({
            encryptedSessionMaterial: await enclave.seal(p.material, paymentUse(fixture, intent)),
            params: p.params,
            intent,
            chainId: TEST_CHAIN_ID,
          });
        }),
      );
      const base = await closedLoop(
        async (i) => {
          const p = prepared[i]!;
          const request = platform.paymentRequest(platform.session.parse(p.material), p.params);
          const response = await fetch(`${enclave.simulator.baseUrl('venmo')}${request.path}`, { method: request.method, headers: request.headers });
          if (response.status !== 200) throw new Error(`platform read answered ${response.status}`);
          await response.json();
        },
        inFlight,
        total,
      );
      const subject = await closedLoop(
        async (i) => {
          const response = await fetch(`${enclave.server.httpUrl}/buyer/verify/venmo/transfer_venmo`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: bodies[i]!,
          });
          if (response.status !== 200) throw new Error(`verification answered ${response.status}: ${await response.text()}`);
          await response.json();
        },
        inFlight,
        total,
      );
      rows.push({ subject, base });
    }
  } finally {
    await enclave.stop();
  }
  return { name: `Buyer-TEE payment verifications over HTTP, ${total} per level`, baseline: 'the same platform read straight to the simulator', rows };
}
