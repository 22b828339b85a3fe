/**
 * How the payout page registers the account the customer gave (gateway/hosted-page/client/
 * account-connect.ts): document 3's identity action and params per rail, and the simulator's
 * sign-in to that very account; nothing for a rail that connects no account or an account the
 * simulator cannot sign in to. Whether a node can connect at all.
 */
import test from 'ava';
import { canConnect, registrationOf } from '../../../gateway/hosted-page/client/account-connect.js';

test('Venmo registers the user id it replays, and signs in to that account', (t) => {
  t.deepEqual(registrationOf('venmo', ' 1618033988 '), {
    platform: 'venmo',
    actionType: 'register_venmo',
    params: { SENDER_ID: '1618033988' },
    signIn: { accountId: '1618033988' },
  });
  t.is(registrationOf('venmo', '@ana'), null, 'not a Venmo user id');
});

test('Cash App signs in as the cashtag without its $, PayPal as the e-mail’s name; neither takes params', (t) => {
  t.deepEqual(registrationOf('cashapp', '$ana_p'), { platform: 'cashapp', actionType: 'register_cashapp', params: {}, signIn: { username: 'ana_p' } });
  t.deepEqual(registrationOf('paypal', 'Ana.P@Example.com'), { platform: 'paypal', actionType: 'register_paypal', params: {}, signIn: { username: 'Ana.P' } });
  t.is(registrationOf('paypal', 'ana@elsewhere.org'), null, 'the simulator’s PayPal accounts are at example.com');
  t.is(registrationOf('cashapp', '$'), null);
});

test('a rail that connects no account has no registration', (t) => {
  for (const rail of ['zelle', 'chime', 'revolut', 'routea_8453']) t.is(registrationOf(rail, 'ana@example.com'), null, rail);
});

test('a node connects from the page only with the simulator, the attestation service, a trusted enclave and a chain', (t) => {
  const full = {
    simulatorUrl: 'http://127.0.0.1:1',
    attestationServiceUrl: 'http://127.0.0.1:2',
    enclave: { measurement: 'm', signers: ['0x1'] },
    chainId: 31337,
  };
  t.true(canConnect({ ...full, caughtMailUrl: null }));
  for (const missing of ['simulatorUrl', 'attestationServiceUrl', 'enclave', 'chainId'] as const)
    t.false(canConnect({ ...full, [missing]: null, caughtMailUrl: null }), missing);
});
