import test from 'ava';
import { keccak256, toBytes } from 'viem';
import type { SessionUse } from '../../enclave/index.js';
import { PLATFORM_FIXTURES, TEST_CHAIN_ID, buyerVerify, intentFor, paymentUse, preparePayment, startTestEnclave } from '../support/enclave.js';

test('nothing decrypted, and nothing sealed, reaches the log on any path', async (t) => {
  const enclave = await startTestEnclave();
  try {
    const secrets: string[] = [];
    const sealed: string[] = [];
    const track = async (material: Record<string, unknown>, use: SessionUse = paymentUse(PLATFORM_FIXTURES[0]!, intentFor(PLATFORM_FIXTURES[0]!))) => {
      for (const value of Object.values(material)) secrets.push(String(value));
      const jwe = await enclave.seal(material, use);
      sealed.push(jwe);
      return jwe;
    };

    for (const fixture of PLATFORM_FIXTURES) {
      const ok = preparePayment(enclave, fixture);
      await track(ok.material);
      t.is((await buyerVerify(enclave, fixture, ok, intentFor(fixture))).status, 200);
      const short = preparePayment(enclave, fixture, { amount: 1n });
      await track(short.material);
      t.is((await buyerVerify(enclave, fixture, short, intentFor(fixture))).body.errorCode, 'AMOUNT_TOO_LOW');
    }
    const venmo = PLATFORM_FIXTURES[0]!;
    const badShape = { Cookie: 'x=1\r\nInjected: header-secret' };
    secrets.push('header-secret');
    t.is((await buyerVerify(enclave, venmo, { ...preparePayment(enclave, venmo), material: badShape }, intentFor(venmo))).status, 400);
    const expired = preparePayment(enclave, venmo);
    await track(expired.material);
    enclave.simulator.expireSession('venmo', expired.material);
    t.is((await buyerVerify(enclave, venmo, expired, intentFor(venmo))).body.errorCode, 'SESSION_REJECTED');

    const identity = enclave.simulator.openSession('paypal', { id: 'P1', username: 'Mary', handle: 'mary@example.com' });
    const identityJwe = await track(identity, { purpose: 'identity', platform: 'paypal', callerAddress: `0x${'11'.repeat(20)}` });
    t.is(
      (
        await enclave.post('/identity', {
          platform: 'paypal',
          actionType: 'register_paypal',
          callerAddress: `0x${'11'.repeat(20)}`,
          encryptedSessionMaterial: identityJwe,
          params: {},
          chainId: TEST_CHAIN_ID,
        })
      ).status,
      200,
    );

    const rawEmail = await enclave.mailer.disputeEmail({
      platform: 'venmo',
      paymentId: '4139920210011',
      disputeId: 'VD-77',
      date: new Date('2026-11-23T11:00:00Z'),
    });
    const emailJwe = await track({ rawEmail }, { purpose: 'dispute', platform: 'venmo', chainId: TEST_CHAIN_ID, intentHash: keccak256(toBytes('x')) });
    secrets.push('The sender of a payment you received has disputed it');
    t.is(
      (
        await enclave.post('/dispute/verify/venmo/dispute_venmo', {
          encryptedSessionMaterial: emailJwe,
          params: {},
          chainId: TEST_CHAIN_ID,
          intentHash: keccak256(toBytes('x')),
        })
      ).status,
      200,
    );

    const log = enclave.logs.join('');
    t.true(enclave.logs.length > 40, 'the service does log its work');
    t.regex(log, /"msg":"payment attested"/);
    t.regex(log, /"code":"AMOUNT_TOO_LOW"/);
    t.regex(log, /"msg":"dispute attested"/);
    for (const secret of secrets) t.false(log.includes(secret), `a session value reached the log: ${secret.slice(0, 12)}…`);
    for (const jwe of sealed) t.false(log.includes(jwe.split('.')[4]!), 'sealed session material reached the log');
  } finally {
    await enclave.stop();
  }
});
