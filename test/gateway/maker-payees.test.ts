/**
 * A payee registered through the maker endpoints is one the attestation service proves
 * payments to: for every platform it reads, a maker registered with the payee as the
 * platform shows it, an intent on the record's hashedOnchainId, and a payment to that
 * payee in the platform simulator make a signed attestation.
 */
import test from 'ava';
import { PAYEE_SPELLINGS } from '../support/maker-payees.js';
import { PayeeDirectory } from '../../actors/market/index.js';
import { buyerVerify, intentFor, PLATFORM_FIXTURES, preparePayment, startTestEnclave, type TestEnclave } from '../support/enclave.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';

/** The new-format depositData of each fixture's payee, spelled as the platform shows it where a maker would copy it. */

let gateway: TestGateway;
let enclave: TestEnclave;
test.before(async () => {
  [gateway, enclave] = await Promise.all([startTestGateway(), startTestEnclave()]);
});
test.after.always(async () => {
  await Promise.all([gateway?.stop(), enclave?.stop()]);
});

for (const fixture of PLATFORM_FIXTURES) {
  test(`${fixture.platform}: a payment to the registered payee is attested against the record's hash`, async (t) => {
    const created = await gateway.request('POST', '/v2/makers/create', {
      body: { processorName: fixture.platform, depositData: PAYEE_SPELLINGS[fixture.platform] },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const record = created.body.responseObject;
    t.is(record.offchainId, fixture.payeeId);

    await gateway.node.system.effectsIdle();
    t.is(
      await (await PayeeDirectory.open(gateway.node.store)).lookup(fixture.platform, record.hashedOnchainId),
      fixture.payeeId,
      'checkout can tell the customer whom to pay',
    );

    const prepared = preparePayment(enclave, fixture);
    const { status, body } = await buyerVerify(enclave, fixture, prepared, intentFor(fixture, { payeeDetails: record.hashedOnchainId }));
    t.is(status, 200, JSON.stringify(body));
  });
}
