import test from 'ava';
import { startTestGateway } from '../support/gateway.js';

test('the embedded node reaches its in-process attestation service through the checked client', async (t) => {
  const gateway = await startTestGateway({ ENCLAVE_ENABLED: true });
  t.teardown(() => gateway.stop());
  const { node } = gateway;
  t.truthy(node.enclave);
  t.is(node.enclaveClient!.signer, node.enclave!.service.signer);
});
